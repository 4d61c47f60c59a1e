import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface SmsMessage {
  at: string
  channel: 'sms'
  to: string
  memberId: string
  code: string
  text: string
}

export interface EmailMessage {
  at: string
  channel: 'email'
  to: string
  memberId: string
  token: string
  link: string
  text: string
}

export type OutboxChannel = 'sms' | 'email'
type MessageOf<C extends OutboxChannel> = C extends 'sms' ? SmsMessage : EmailMessage

/** Every message the identity provider wrote to <dataDir>/outbox/<channel>.jsonl, oldest first. */
export function readOutbox<C extends OutboxChannel>(dataDir: string, channel: C): MessageOf<C>[] {
  const file = join(dataDir, 'outbox', `${channel}.jsonl`)
  if (!existsSync(file)) return []
  return (
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as MessageOf<C> & { kind?: string })
      // Alert messages (alert delivery, `kind` set) share the files; they are not the provider's.
      .filter((m) => m.kind === undefined)
  )
}

/**
 * Waits until the outbox holds more than `after` messages for `channel` (optionally to `to`)
 * and returns the newest one.
 */
export async function waitForOutbox<C extends OutboxChannel>(
  dataDir: string,
  channel: C,
  options: { after?: number; to?: string; timeoutMs?: number } = {},
): Promise<MessageOf<C>> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000)
  for (;;) {
    const messages = readOutbox(dataDir, channel).filter((m) => !options.to || m.to === options.to)
    const newest = messages[messages.length - 1]
    if (newest && messages.length > (options.after ?? 0)) return newest
    if (Date.now() > deadline) throw new Error(`no new ${channel} message in the outbox of ${dataDir}`)
    await new Promise((wait) => setTimeout(wait, 100))
  }
}

/** How many messages the outbox holds now (pass as `after` to waitForOutbox). */
export function outboxCount(dataDir: string, channel: OutboxChannel, to?: string): number {
  return readOutbox(dataDir, channel).filter((m) => !to || m.to === to).length
}
