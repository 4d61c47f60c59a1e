import type { AuditEntry } from '../../identityStore'
import type { AccountsSql } from './nulSafe'
import { insertInto, pgCodec } from '../../rows/codec'
import { AUDIT_COLUMNS, auditToParams } from '../../rows/identityRows'

/** Writes one audit entry (inside the caller's transaction when there is one). */
export async function pgAudit(db: AccountsSql, e: AuditEntry): Promise<void> {
  await db.run(insertInto(pgCodec, 'identity_audit', AUDIT_COLUMNS), auditToParams(pgCodec, e))
}
