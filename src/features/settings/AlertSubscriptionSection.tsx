import { Button, Callout, Checkbox, H2, Radio, RadioGroup, Spinner, Switch } from '@blueprintjs/core'
import { useState } from 'react'
import {
  fetchSubscription,
  saveSubscription,
  type AlertSubscription,
  type ChannelChoice,
  type SubscriptionState,
} from './alertSubscriptionApi'
import { DeliveryLogSection } from './DeliveryLogSection'
import { useLoad } from './useLoad'

const CHANNEL_LABELS: Record<ChannelChoice, string> = { sms: 'SMS', email: 'E-mail', both: 'SMS and e-mail' }
const EMPTY: AlertSubscription = { rules: [], severities: [], channel: 'sms', quietHours: null }
const DEFAULT_QUIET = { start: '22:00', end: '06:00' }

const load = () => fetchSubscription()

const toggle = (list: readonly string[], id: string, on: boolean) =>
  on ? [...new Set([...list, id])] : list.filter((x) => x !== id)

/**
 * Settings → Alert subscriptions: the alert rules and severities that reach the member, by SMS,
 * e-mail or both, and optional quiet hours (the bypassing severities still arrive). Saved with
 * the Save button; administrators also see the delivery log.
 */
export function AlertSubscriptionSection() {
  const [state] = useLoad(load)
  return (
    <section aria-labelledby="settings-alert-subscriptions" data-testid="settings-alert-subscriptions">
      <H2 id="settings-alert-subscriptions">Alert subscriptions</H2>
      {state.state === 'loading' ? <Spinner size={20} /> : null}
      {state.state === 'failed' ? <Callout intent="danger">{state.message}</Callout> : null}
      {state.state === 'ready' && state.value === null ? (
        <Callout>Alert delivery is not configured on this server.</Callout>
      ) : null}
      {state.state === 'ready' && state.value !== null ? <SubscriptionForm initial={state.value} /> : null}
      <DeliveryLogSection />
    </section>
  )
}

function SubscriptionForm({ initial }: { initial: SubscriptionState }) {
  const { options } = initial
  const [draft, setDraft] = useState<AlertSubscription>(initial.subscription ?? EMPTY)
  const [saving, setSaving] = useState(false)
  const [message, setMessage] = useState<{ intent: 'success' | 'danger'; text: string } | null>(null)
  const edit = (next: AlertSubscription) => {
    setDraft(next)
    setMessage(null)
  }
  const severityLabel = (id: string) => options.severities.find((s) => s.id === id)?.label ?? id
  const bypass = options.bypassQuietHours.map(severityLabel).join(', ')

  async function save() {
    setSaving(true)
    try {
      setDraft(await saveSubscription(draft))
      setMessage({ intent: 'success', text: 'Saved.' })
    } catch (error) {
      setMessage({ intent: 'danger', text: error instanceof Error ? error.message : String(error) })
    } finally {
      setSaving(false)
    }
  }

  return (
    <form
      className="emberline-settings-subscriptions"
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <p className="bp6-text-muted">
        New alerts are sent once; several within {options.digestWindowMinutes} min arrive as one digest.
        {options.reminderIntervalMinutes > 0
          ? ` Unacknowledged alerts are repeated every ${options.reminderIntervalMinutes} min until you acknowledge them in Alerts.`
          : ''}
      </p>
      <fieldset>
        <legend>Rules</legend>
        {options.rules.map((rule) => (
          <Checkbox
            key={rule.id}
            label={`${rule.title} (${severityLabel(rule.severity)})`}
            checked={draft.rules.includes(rule.id)}
            onChange={(e) => edit({ ...draft, rules: toggle(draft.rules, rule.id, e.currentTarget.checked) })}
          />
        ))}
      </fieldset>
      <fieldset>
        <legend>Severities</legend>
        {options.severities.map((s) => (
          <Checkbox
            key={s.id}
            inline
            label={s.label}
            checked={draft.severities.includes(s.id)}
            onChange={(e) =>
              edit({ ...draft, severities: toggle(draft.severities, s.id, e.currentTarget.checked) })
            }
          />
        ))}
      </fieldset>
      <RadioGroup
        label="Send by"
        inline
        selectedValue={draft.channel}
        onChange={(e) => edit({ ...draft, channel: e.currentTarget.value as ChannelChoice })}
      >
        {options.channels.map((c) => (
          <Radio key={c} value={c} label={CHANNEL_LABELS[c]} />
        ))}
      </RadioGroup>
      <Switch
        label={`Quiet hours (${bypass} alerts still arrive)`}
        checked={draft.quietHours !== null}
        onChange={(e) => edit({ ...draft, quietHours: e.currentTarget.checked ? DEFAULT_QUIET : null })}
      />
      {draft.quietHours ? (
        <div className="emberline-settings-quiet">
          <QuietHourInput
            prefix="From"
            label="Quiet hours from"
            value={draft.quietHours.start}
            onChange={(start) =>
              draft.quietHours && edit({ ...draft, quietHours: { ...draft.quietHours, start } })
            }
          />
          <QuietHourInput
            prefix="to"
            label="Quiet hours to"
            value={draft.quietHours.end}
            onChange={(end) =>
              draft.quietHours && edit({ ...draft, quietHours: { ...draft.quietHours, end } })
            }
          />
          {options.timeZone ? <span className="bp6-text-muted"> ({options.timeZone})</span> : null}
        </div>
      ) : null}
      <div className="emberline-settings-actions">
        <Button type="submit" intent="primary" loading={saving}>
          Save alert subscriptions
        </Button>
      </div>
      {message ? (
        <Callout intent={message.intent} role="status">
          {message.text}
        </Callout>
      ) : null}
    </form>
  )
}

/** One end of the quiet hours: a labelled time input (HH:MM in the delivery time zone). */
function QuietHourInput(props: {
  prefix: string
  label: string
  value: string
  onChange(value: string): void
}) {
  return (
    <label>
      {props.prefix}{' '}
      <input
        className="bp6-input"
        type="time"
        aria-label={props.label}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
    </label>
  )
}
