import type { DeliverySettings } from '../../shared/config'
import { renderTemplate, type MessageFields } from './messageFields'
import type { MessageKind } from './alertChannels'

/** The texts of one message, for both channels. */
export interface ComposedMessage {
  kind: MessageKind
  alertIds: string[]
  sms: string
  subject: string
  email: string
  link: string
}

/**
 * One alert → its templates; several → a digest (one `digestLine` per alert, nearest in time
 * first as given); a reminder puts `reminderPrefix` before the text and the subject.
 */
export function composeMessage(
  templates: DeliverySettings['templates'],
  alerts: readonly { alertId: string; fields: MessageFields }[],
  opts: { reminder: boolean; alertsUrl: string },
): ComposedMessage {
  const first = alerts[0]
  if (!first) throw new Error('composeMessage needs at least one alert')
  const alertIds = alerts.map((a) => a.alertId)
  const prefix = opts.reminder ? renderTemplate(templates.reminderPrefix, first.fields) : ''
  const kind: MessageKind = opts.reminder ? 'reminder' : alerts.length === 1 ? 'alert' : 'digest'
  if (alerts.length === 1) {
    return {
      kind,
      alertIds,
      sms: prefix + renderTemplate(templates.sms, first.fields),
      subject: prefix + renderTemplate(templates.emailSubject, first.fields),
      email: prefix + renderTemplate(templates.email, first.fields),
      link: first.fields.link ?? opts.alertsUrl,
    }
  }
  const lines = alerts.map((a) => renderTemplate(templates.digestLine, a.fields))
  const digest = (template: string, separator: string) =>
    renderTemplate(template, {
      count: String(alerts.length),
      link: opts.alertsUrl,
      lines: lines.join(separator),
    })
  return {
    kind,
    alertIds,
    sms: prefix + digest(templates.digestSms, '; '),
    subject: prefix + digest(templates.digestEmailSubject, '; '),
    email: prefix + digest(templates.digestEmail, '\n'),
    link: opts.alertsUrl,
  }
}
