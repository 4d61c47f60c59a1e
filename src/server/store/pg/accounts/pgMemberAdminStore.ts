import type { MemberRecord } from '../../identityStore'
import type { AuditFilter, AuditRecord, MemberAdminStore, MemberSearch } from '../../memberAdminStore'
import type { AccountsSql } from './nulSafe'
import { pgCodec } from '../../rows/codec'
import { auditEntryFromRow, memberFromRow, type AuditRow, type MemberRow } from '../../rows/identityRows'

/** `%`, `_` and `\` match themselves in a LIKE pattern built from user text. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)
const contains = (text: string) => `%${escapeLike(text.toLowerCase())}%`
/** LIMIT and OFFSET as SQLite takes them: a negative limit is no limit, a negative offset none. */
const page = (limit: number, offset: number) => [
  limit < 0 ? null : Math.floor(limit),
  Math.max(0, Math.floor(offset)),
]

/**
 * A time bound for the bigint column as SQLite compares it: the next whole millisecond (same rows),
 * infinities clamped, NaN as NULL (matches nothing).
 */
const timeBound = (ms: number): number | null =>
  Number.isNaN(ms)
    ? null
    : Math.ceil(Math.min(Math.max(ms, -Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER))

/** Builds a WHERE clause with numbered parameters. */
function conditions() {
  const where: string[] = []
  const args: unknown[] = []
  return {
    args,
    /** Adds a condition; `$?` in it is replaced by the next parameters, in order. */
    add(sql: string, ...values: unknown[]) {
      let i = 0
      where.push(sql.replace(/\$\?/g, () => `$${args.length + ++i}`))
      args.push(...values)
    },
    get clause() {
      return where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
    },
    get next() {
      return `$${args.length + 1}`
    },
  }
}

/**
 * Member administration's queries in PostgreSQL: member search with filters, the paged audit log.
 * Part of the identity store (createPgIdentityStore spreads them in).
 */
export function createPgMemberAdminStore(
  db: AccountsSql,
  memberById: (memberId: string) => Promise<MemberRecord | null>,
): MemberAdminStore {
  return {
    async searchMembers(q: MemberSearch): Promise<{ members: MemberRecord[]; total: number }> {
      const c = conditions()
      if (q.text) {
        const p = contains(q.text)
        c.add("(lower(email) LIKE $? ESCAPE '\\' OR lower(name) LIKE $? ESCAPE '\\')", p, p)
      }
      if (q.phone) c.add("coalesce(phone, '') LIKE $? ESCAPE '\\'", contains(q.phone))
      // An empty list matches nothing, as a filter on no values should.
      if (q.memberIds) c.add('member_id = ANY($?::text[])', q.memberIds)
      if (q.emails)
        c.add(
          'email = ANY($?::text[])',
          q.emails.map((e) => e.trim().toLowerCase()),
        )
      if (q.statuses) c.add('status = ANY($?::text[])', q.statuses)
      if (q.roles) c.add('roles ?| $?::text[]', q.roles)
      if (q.passwordExists !== undefined)
        c.add(q.passwordExists ? 'password_hash IS NOT NULL' : 'password_hash IS NULL')
      const total = await db.one<{ n: number }>(
        `SELECT count(*) AS n FROM identity_members ${c.clause}`,
        c.args,
      )
      const [limit, offset] = page(q.limit, q.offset)
      const rows = await db.query<MemberRow>(
        `SELECT * FROM identity_members ${c.clause} ORDER BY email LIMIT ${c.next} OFFSET $${c.args.length + 2}`,
        [...c.args, limit, offset],
      )
      return { members: rows.map((r) => memberFromRow(pgCodec, r)), total: total?.n ?? 0 }
    },

    async memberByPasswordId(passwordId: string): Promise<MemberRecord | null> {
      const row = await db.one<{ member_id: string }>(
        'SELECT member_id FROM identity_members WHERE password_id = $1 ORDER BY member_id LIMIT 1',
        [passwordId],
      )
      return row ? memberById(row.member_id) : null
    },

    async auditPage(f: AuditFilter): Promise<{ entries: AuditRecord[]; total: number }> {
      const c = conditions()
      // Events a member caused on their own account carry no actor: the member is the actor.
      if (f.actorId) c.add('(actor_id = $? OR (actor_id IS NULL AND member_id = $?))', f.actorId, f.actorId)
      if (f.action) {
        if (f.action.endsWith('.')) c.add("event LIKE $? ESCAPE '\\'", `${escapeLike(f.action)}%`)
        else c.add('event = $?', f.action)
      }
      if (f.memberId) c.add('member_id = $?', f.memberId)
      if (f.from !== undefined) c.add('at >= $?', timeBound(f.from))
      if (f.to !== undefined) c.add('at < $?', timeBound(f.to))
      const total = await db.one<{ n: number }>(
        `SELECT count(*) AS n FROM identity_audit ${c.clause}`,
        c.args,
      )
      const [limit, offset] = page(f.limit, f.offset)
      const rows = await db.query<AuditRow>(
        `SELECT * FROM identity_audit ${c.clause} ORDER BY at DESC, id DESC LIMIT ${c.next} OFFSET $${c.args.length + 2}`,
        [...c.args, limit, offset],
      )
      return {
        total: total?.n ?? 0,
        entries: rows.map((r) => ({ id: r.id, ...auditEntryFromRow(pgCodec, r) })),
      }
    },

    /** Distinct event names in the log (for the filter's choices). */
    async auditEvents(): Promise<string[]> {
      const rows = await db.query<{ event: string }>(
        'SELECT DISTINCT event FROM identity_audit ORDER BY event',
      )
      return rows.map((r) => r.event)
    },
  }
}
