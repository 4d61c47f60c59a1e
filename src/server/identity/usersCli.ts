import { identityStorage, type AccountsSource } from '../store/identityStorage'
import type { MemberRecord } from '../store/identityStore'
import { hashPassword, newId, newToken } from './crypto'
import { emailKey, memberKey, passwordProblem } from './guards'
import { checkRoles, createMember } from './memberAdmin'
import { normalizePhone } from './memberFields'
import { identitySettings, type IdentitySettings } from './settings'
import { machineClientAdmin } from './machineClients'
import { M2M_USAGE, runM2mCommand } from './machineClientsCli'

export const USAGE = `Usage: npm run users -- <command> [options]   (store: --data-dir DIR, default $DATA_DIR or ./var)
  add <email> [--name NAME] [--phone +15055550123] [--roles r1,r2] [--password PW]
  list
  disable <email>            (also ends the member's sessions)
  enable <email>
  reset-password <email> [--password PW]   (ends sessions, lifts a lockout)
  set-phone <email> <+E164 | none>
  set-roles <email> <r1,r2>
  audit [--limit N]
${M2M_USAGE}
Without --password a strong password is generated and printed once.`

export interface CliIo {
  db: AccountsSource
  print: (line: string) => void
  settings?: IdentitySettings
  now?: () => number
}

class UsageError extends Error {}

/** Splits `--name value` options from positional arguments. */
export function parseArgs(argv: string[]): { positional: string[]; options: Record<string, string> } {
  const positional: string[] = []
  const options: Record<string, string> = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined]
      const value = inline ?? argv[++i]
      if (value === undefined) throw new UsageError(`--${name} needs a value`)
      options[name] = value
    } else positional.push(arg)
  }
  return { positional, options }
}

function row(m: MemberRecord, sessions: number): string {
  return [
    m.email,
    m.name,
    m.phone ?? '-',
    m.roles.join(','),
    m.status,
    `${sessions} session(s)`,
    m.memberId,
  ].join('\t')
}

/** The admin CLI over the identity tables; returns the process exit code (0 ok, 1 error, 2 usage). */
export async function runUsersCli(argv: string[], io: CliIo): Promise<number> {
  const settings = io.settings ?? identitySettings
  const now = io.now ?? Date.now
  const { members, tokens, machines } = identityStorage(io.db)
  const must = async (email: string | undefined): Promise<MemberRecord> => {
    if (!email) throw new UsageError('an e-mail address is required')
    const m = await members.memberByEmail(email)
    if (!m) throw new Error(`no member with e-mail ${email}`)
    return m
  }
  try {
    const { positional, options } = parseArgs(argv)
    const [command, first, second] = positional
    switch (command) {
      case 'add': {
        if (!first) throw new UsageError('add needs an e-mail address')
        const password = options.password ?? newToken(12)
        const m = await createMember(
          members,
          settings,
          {
            email: first,
            name: options.name,
            phone: options.phone ?? null,
            password,
            roles: options.roles ? options.roles.split(',').map((r) => r.trim()) : undefined,
          },
          now(),
        )
        await members.audit({
          at: now(),
          event: 'member.created',
          memberId: m.memberId,
          subject: 'cli',
          ip: null,
          detail: {},
        })
        io.print(`added ${row(m, 0)}`)
        if (!options.password) io.print(`password: ${password}`)
        if (!m.phone)
          io.print('note: no phone yet; the member cannot finish the SMS step until set-phone is run')
        return 0
      }
      case 'list':
        for (const m of await members.listMembers())
          io.print(row(m, await members.activeSessionCount(m.memberId, now())))
        return 0
      case 'disable': {
        const m = await must(first)
        await members.updateMember(m.memberId, { status: 'inactive' }, now())
        const ended = await members.revokeMemberSessions(m.memberId, now())
        await members.audit({
          at: now(),
          event: 'member.disabled',
          memberId: m.memberId,
          subject: 'cli',
          ip: null,
          detail: { ended },
        })
        io.print(`disabled ${m.email}; ended ${ended} session(s)`)
        return 0
      }
      case 'enable': {
        const m = await must(first)
        await members.updateMember(m.memberId, { status: 'active' }, now())
        await members.audit({
          at: now(),
          event: 'member.enabled',
          memberId: m.memberId,
          subject: 'cli',
          ip: null,
          detail: {},
        })
        io.print(`enabled ${m.email}`)
        return 0
      }
      case 'reset-password': {
        const m = await must(first)
        const password = options.password ?? newToken(12)
        const problem = passwordProblem(settings, password, m.email)
        if (problem) throw new Error(problem)
        await members.updateMember(
          m.memberId,
          { passwordHash: await hashPassword(password), passwordId: newId('member-password') },
          now(),
        )
        const ended = await members.revokeMemberSessions(m.memberId, now())
        await tokens.clearThrottle(emailKey(m.email))
        await tokens.clearThrottle(memberKey(m.memberId))
        await members.audit({
          at: now(),
          event: 'password.set_by_admin',
          memberId: m.memberId,
          subject: 'cli',
          ip: null,
          detail: { ended },
        })
        io.print(`new password set for ${m.email}; ended ${ended} session(s)`)
        if (!options.password) io.print(`password: ${password}`)
        return 0
      }
      case 'set-phone': {
        const m = await must(first)
        if (!second) throw new UsageError('set-phone needs a phone number (or none)')
        const phone = second === 'none' ? null : normalizePhone(second)
        await members.updateMember(m.memberId, { phone }, now())
        await members.audit({
          at: now(),
          event: 'member.phone_set',
          memberId: m.memberId,
          subject: 'cli',
          ip: null,
          detail: {},
        })
        io.print(`phone of ${m.email}: ${phone ?? 'none'}`)
        return 0
      }
      case 'set-roles': {
        const m = await must(first)
        if (!second) throw new UsageError('set-roles needs a comma-separated role list')
        const roles = checkRoles(
          settings,
          second
            .split(',')
            .map((r) => r.trim())
            .filter(Boolean),
        )
        await members.updateMember(m.memberId, { roles }, now())
        await members.audit({
          at: now(),
          event: 'member.roles_set',
          memberId: m.memberId,
          subject: 'cli',
          ip: null,
          detail: { roles },
        })
        io.print(
          `roles of ${m.email}: ${roles.join(', ')} (effective at the next sign-in or session refresh)`,
        )
        return 0
      }
      case 'audit': {
        const limit = Number(options.limit ?? 50)
        if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive integer')
        for (const e of (await members.auditLog(limit)).reverse()) {
          const detail = Object.keys(e.detail).length ? JSON.stringify(e.detail) : ''
          io.print(
            [
              new Date(e.at).toISOString(),
              e.event,
              e.memberId ?? '-',
              // Who acted: 'cli', an administrator (Settings → Organization) or '-' (the member).
              e.subject ?? (e.actorId ? `by:${e.actorId}` : '-'),
              e.ip ?? '-',
              detail,
            ].join('\t'),
          )
        }
        return 0
      }
      case 'm2m': {
        const admin = machineClientAdmin(
          {
            settings,
            now,
            audit: async (event, fields = {}) =>
              members.audit({
                at: now(),
                event,
                actorId: null,
                memberId: null,
                subject: fields.subject ?? 'cli',
                ip: null,
                detail: { ...(fields.detail ?? {}), by: 'cli' },
              }),
          },
          machines,
        )
        return await runM2mCommand(
          { positional: positional.slice(1), options },
          admin,
          io.print,
          (m) => new UsageError(m),
        )
      }
      default:
        throw new UsageError(command ? `unknown command "${command}"` : 'no command given')
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.print(`error: ${err.message}\n${USAGE}`)
      return 2
    }
    io.print(`error: ${(err as Error).message}`)
    return 1
  }
}
