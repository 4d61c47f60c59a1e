import type Database from 'better-sqlite3'
import type { Awaitable } from './Awaitable'

/** Member display preferences (table member_preferences, migration 060). */
export interface PreferencesStore {
  /** The stored object, or null when the member never saved any. */
  read(memberId: string): Awaitable<Record<string, unknown> | null>
  write(memberId: string, preferences: Readonly<Record<string, string>>, now: number): Awaitable<void>
}

export function createPreferencesStore(db: Database.Database): PreferencesStore {
  const select = db.prepare('SELECT preferences FROM member_preferences WHERE member_id = ?').pluck()
  const upsert = db.prepare(
    `INSERT INTO member_preferences (member_id, preferences, updated_at) VALUES (?, ?, ?)
     ON CONFLICT(member_id) DO UPDATE SET preferences = excluded.preferences, updated_at = excluded.updated_at`,
  )
  return {
    read(memberId) {
      const raw = select.get(memberId)
      if (typeof raw !== 'string') return null
      try {
        const parsed: unknown = JSON.parse(raw)
        return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
          ? (parsed as Record<string, unknown>)
          : null
      } catch {
        return null
      }
    },
    write(memberId, preferences, now) {
      upsert.run(memberId, JSON.stringify(preferences), now)
    },
  }
}
