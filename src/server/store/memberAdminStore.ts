import type Database from 'better-sqlite3'
import type { Awaitable } from './Awaitable'
import type { MemberRecord, MemberStatus } from './identityRecords'
import { sqliteCodec } from './rows/codec'
import { auditEntryFromRow, type AuditRow } from './rows/identityRows'

export interface MemberSearch {
  /** Part of the e-mail address or name (case-insensitive). */
  text?: string
  /** Part of the phone number. */
  phone?: string
  memberIds?: string[]
  emails?: string[]
  statuses?: MemberStatus[]
  /** Members holding any of these roles. */
  roles?: string[]
  /** Only members with (true) or without (false) a password. */
  passwordExists?: boolean
  limit: number
  offset: number
}

export interface AuditFilter {
  /** Who acted: the administrator, or the member acting on their own account. */
  actorId?: string
  /** An event name (`member.disabled`) or a prefix ending in `.` (`member.`). */
  action?: string
  /** The member the event is about. */
  memberId?: string
  /** Epoch milliseconds, inclusive. */
  from?: number
  /** Epoch milliseconds, exclusive. */
  to?: number
  limit: number
  offset: number
}

export interface AuditRecord {
  id: number
  at: number
  event: string
  actorId: string | null
  memberId: string | null
  subject: string | null
  ip: string | null
  detail: Record<string, unknown>
}

/** `%` and `_` match themselves in a LIKE pattern built from user text. */
const like = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** Member administration's queries: member search with filters, the paged audit log. */
export interface MemberAdminStore {
  searchMembers(q: MemberSearch): Awaitable<{ members: MemberRecord[]; total: number }>
  memberByPasswordId(passwordId: string): Awaitable<MemberRecord | null>
  auditPage(f: AuditFilter): Awaitable<{ entries: AuditRecord[]; total: number }>
  /** Distinct event names in the log (for the filter's choices). */
  auditEvents(): Awaitable<string[]>
}

/**
 * Queries of the member administration: member search with filters, paged audit log. Part of the
 * identity store (createIdentityStore spreads them in), so no caller needs the database handle.
 */
export function createMemberAdminStore(
  db: Database.Database,
  memberById: (memberId: string) => MemberRecord | null,
) {
  return {
    searchMembers(q: MemberSearch): { members: MemberRecord[]; total: number } {
      const where: string[] = []
      const args: (string | number)[] = []
      if (q.text) {
        where.push("(lower(email) LIKE ? ESCAPE '\\' OR lower(name) LIKE ? ESCAPE '\\')")
        args.push(like(q.text), like(q.text))
      }
      if (q.phone) {
        where.push("coalesce(phone, '') LIKE ? ESCAPE '\\'")
        args.push(like(q.phone))
      }
      const inList = (column: string, values: string[]) => {
        where.push(`${column} IN (${values.map(() => '?').join(',')})`)
        args.push(...values)
      }
      if (q.memberIds) inList('member_id', q.memberIds)
      if (q.emails)
        inList(
          'email',
          q.emails.map((e) => e.trim().toLowerCase()),
        )
      if (q.statuses) inList('status', q.statuses)
      if (q.roles) {
        where.push(
          `EXISTS (SELECT 1 FROM json_each(identity_members.roles) r WHERE r.value IN (${q.roles.map(() => '?').join(',')}))`,
        )
        args.push(...q.roles)
      }
      if (q.passwordExists !== undefined)
        where.push(q.passwordExists ? 'password_hash IS NOT NULL' : 'password_hash IS NULL')
      // An empty IN () list matches nothing, as a filter on no values should.
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
      const total = Number(
        db
          .prepare(`SELECT count(*) FROM identity_members ${clause}`)
          .pluck()
          .get(...args),
      )
      const ids = db
        .prepare(`SELECT member_id FROM identity_members ${clause} ORDER BY email LIMIT ? OFFSET ?`)
        .pluck()
        .all(...args, q.limit, q.offset) as string[]
      const members = ids.map((id) => memberById(id)).filter((m): m is MemberRecord => m !== null)
      return { members, total }
    },

    memberByPasswordId(passwordId: string): MemberRecord | null {
      const id = db
        .prepare('SELECT member_id FROM identity_members WHERE password_id = ?')
        .pluck()
        .get(passwordId) as string | undefined
      return id ? memberById(id) : null
    },

    auditPage(f: AuditFilter): { entries: AuditRecord[]; total: number } {
      const where: string[] = []
      const args: (string | number)[] = []
      if (f.actorId) {
        // Events a member caused on their own account carry no actor: the member is the actor.
        where.push('(actor_id = ? OR (actor_id IS NULL AND member_id = ?))')
        args.push(f.actorId, f.actorId)
      }
      if (f.action) {
        if (f.action.endsWith('.')) {
          where.push("event LIKE ? ESCAPE '\\'")
          args.push(`${f.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
        } else {
          where.push('event = ?')
          args.push(f.action)
        }
      }
      if (f.memberId) {
        where.push('member_id = ?')
        args.push(f.memberId)
      }
      if (f.from !== undefined) {
        where.push('at >= ?')
        args.push(f.from)
      }
      if (f.to !== undefined) {
        where.push('at < ?')
        args.push(f.to)
      }
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
      const total = Number(
        db
          .prepare(`SELECT count(*) FROM identity_audit ${clause}`)
          .pluck()
          .get(...args),
      )
      const rows = db
        .prepare(`SELECT * FROM identity_audit ${clause} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`)
        .all(...args, f.limit, f.offset) as AuditRow[]
      return { total, entries: rows.map((r) => ({ id: r.id, ...auditEntryFromRow(sqliteCodec, r) })) }
    },

    /** Distinct event names in the log (for the filter's choices). */
    auditEvents(): string[] {
      return db.prepare('SELECT DISTINCT event FROM identity_audit ORDER BY event').pluck().all() as string[]
    },
  }
}
