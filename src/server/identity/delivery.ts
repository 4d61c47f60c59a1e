import { appendFile, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { StytchError } from './errors'
import { postWebhook } from '../postWebhook'

export interface SmsMessage {
  to: string
  memberId: string
  code: string
  text: string
}

export interface EmailMessage {
  to: string
  memberId: string
  token: string
  link: string
  text: string
}

/** Where SMS codes and reset links go. */
export interface Delivery {
  sms(message: SmsMessage): Promise<void>
  email(message: EmailMessage): Promise<void>
}

export interface DeliveryOptions {
  dataDir: string
  /** EMBERLINE_SMS_WEBHOOK_URL / EMBERLINE_EMAIL_WEBHOOK_URL switch a channel to a gateway. */
  env: Record<string, string | undefined>
  /** Console line printer (the outbox is meant to be read by an operator in development). */
  print?: (line: string) => void
  now?: () => number
}

/**
 * The outbox: one JSON line per message under `<dataDir>/outbox/<channel>.jsonl`, also
 * printed on the console, unless a gateway URL is configured for the channel, in which
 * case the same JSON object is POSTed there instead.
 */
export function createDelivery(opts: DeliveryOptions): Delivery {
  const print = opts.print ?? ((line: string) => process.stdout.write(`${line}\n`))
  const now = opts.now ?? Date.now
  const dir = path.join(opts.dataDir, 'outbox')

  async function send(channel: 'sms' | 'email', record: Record<string, string>, gateway: string | undefined) {
    const line = { at: new Date(now()).toISOString(), channel, ...record }
    if (gateway) {
      const sent = await postWebhook(gateway, line, 10_000)
      if (sent.ok) return
      throw new StytchError(
        502,
        'delivery_failed',
        sent.status === null
          ? 'The message gateway could not be reached.'
          : `The message gateway answered ${sent.status}.`,
      )
    }
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 })
      await appendFile(path.join(dir, `${channel}.jsonl`), `${JSON.stringify(line)}\n`, { mode: 0o600 })
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error'
      throw new StytchError(
        502,
        'delivery_failed',
        `The message could not be written to the outbox (${code}).`,
      )
    }
    print(`[outbox] ${channel} to ${record.to}: ${record.text}`)
  }

  return {
    sms: (m) =>
      send(
        'sms',
        { to: m.to, memberId: m.memberId, code: m.code, text: m.text },
        opts.env.EMBERLINE_SMS_WEBHOOK_URL,
      ),
    email: (m) =>
      send(
        'email',
        { to: m.to, memberId: m.memberId, token: m.token, link: m.link, text: m.text },
        opts.env.EMBERLINE_EMAIL_WEBHOOK_URL,
      ),
  }
}
