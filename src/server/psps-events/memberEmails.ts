import type { AppStore } from '../store/AppStore'
import type { StoredPspsEvent } from '../store/pspsEventStore'

/** member id → e-mail for everyone who changed the event (null for a member no longer known). */
export async function memberEmails(
  store: AppStore,
  event: StoredPspsEvent,
): Promise<(id: string) => string | null> {
  const ids = new Set([event.createdBy, ...event.phases.map((p) => p.by)])
  for (const c of event.circuits) for (const p of c.periods) ids.add(p.recordedBy)
  const found = new Map<string, string | null>()
  for (const id of ids) found.set(id, (await store.members.memberById(id))?.email ?? null)
  return (id) => found.get(id) ?? null
}
