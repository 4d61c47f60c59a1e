import type { AuditEntry } from '../../identityStore'
import type { AccountsSql } from './nulSafe'
import { pgJson } from './pgJson'

/** Writes one audit entry (inside the caller's transaction when there is one). */
export async function pgAudit(db: AccountsSql, e: AuditEntry): Promise<void> {
  await db.run(
    `INSERT INTO identity_audit (at, event, actor_id, member_id, subject, ip, detail)
     VALUES ($1,$2,$3,$4,$5,$6,$7)`,
    [e.at, e.event, e.actorId ?? null, e.memberId, e.subject, e.ip, pgJson(e.detail)],
  )
}
