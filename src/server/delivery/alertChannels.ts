import { appendFile, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { postWebhook } from '../postWebhook'

export type AlertChannel = 'sms' | 'email'
export type MessageKind = 'alert' | 'digest' | 'reminder'

/** One alert message to one member on one channel. */
export interface AlertMessage {
  channel: AlertChannel
  to: string
  memberId: string
  kind: MessageKind
  alertIds: string[]
  subject: string | null
  text: string
  link: string
}

/** Sends one message; rejects with a readable reason when it could not be handed over. */
export type SendAlertMessage = (message: AlertMessage) => Promise<void>

export interface AlertChannelsOptions {
  dataDir: string
  /** EMBERLINE_SMS_WEBHOOK_URL / EMBERLINE_EMAIL_WEBHOOK_URL switch a channel to its gateway. */
  env: Record<string, string | undefined>
  print?: (line: string) => void
  now?: () => number
  /** Gateway timeout (ms), default 10 s. */
  timeoutMs?: number
}

const GATEWAY_ENV: Record<AlertChannel, string> = {
  sms: 'EMBERLINE_SMS_WEBHOOK_URL',
  email: 'EMBERLINE_EMAIL_WEBHOOK_URL',
}

/**
 * The identity provider's channels (src/server/identity/delivery.ts) for alert messages: one JSON
 * line per message appended to `<dataDir>/outbox/<channel>.jsonl` (and printed) without a gateway,
 * the same JSON POSTed to the channel's webhook with one. Lines carry `kind` (alert, digest,
 * reminder) and `alertIds`, so sign-in codes and alerts are told apart.
 */
export function createAlertChannels(opts: AlertChannelsOptions): SendAlertMessage {
  const print = opts.print ?? ((line: string) => process.stdout.write(`${line}\n`))
  const now = opts.now ?? Date.now
  const dir = path.join(opts.dataDir, 'outbox')
  return async (message) => {
    const line = {
      at: new Date(now()).toISOString(),
      channel: message.channel,
      to: message.to,
      memberId: message.memberId,
      kind: message.kind,
      alertIds: message.alertIds,
      ...(message.subject === null ? {} : { subject: message.subject }),
      text: message.text,
      link: message.link,
    }
    const gateway = opts.env[GATEWAY_ENV[message.channel]]
    if (gateway) {
      const sent = await postWebhook(gateway, line, opts.timeoutMs ?? 10_000)
      if (sent.ok) return
      throw new Error(
        sent.status === null
          ? 'the message gateway could not be reached'
          : `the message gateway answered ${sent.status}`,
      )
    }
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 })
      await appendFile(path.join(dir, `${message.channel}.jsonl`), `${JSON.stringify(line)}\n`, {
        mode: 0o600,
      })
    } catch (err) {
      throw new Error(`the outbox could not be written (${(err as NodeJS.ErrnoException).code ?? 'error'})`)
    }
    print(`[outbox] ${message.channel} ${message.kind} to ${message.to}: ${message.text}`)
  }
}
