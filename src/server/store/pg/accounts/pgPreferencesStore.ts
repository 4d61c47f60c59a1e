import type { PreferencesStore } from '../../preferencesStore'
import type { PgDatabase } from '../pgDatabase'
import { nulSafe } from './nulSafe'
import { pgJson } from './pgJson'

/** Member display preferences in PostgreSQL (jsonb object per member). */
export function createPgPreferencesStore(pg: PgDatabase): PreferencesStore {
  const db = nulSafe(pg)
  return {
    async read(memberId: string): Promise<Record<string, unknown> | null> {
      const row = await db.one<{ preferences: unknown }>(
        'SELECT preferences FROM member_preferences WHERE member_id = $1',
        [memberId],
      )
      const p = row?.preferences
      return typeof p === 'object' && p !== null && !Array.isArray(p) ? (p as Record<string, unknown>) : null
    },
    async write(memberId: string, preferences: Readonly<Record<string, string>>, now: number): Promise<void> {
      await db.run(
        `INSERT INTO member_preferences (member_id, preferences, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (member_id) DO UPDATE SET preferences = excluded.preferences, updated_at = excluded.updated_at`,
        [memberId, pgJson(preferences), now],
      )
    },
  }
}
