import path from 'node:path'
import { identityStorage, type AccountsSource } from '../store/identityStorage'
import { newToken } from './crypto'
import { createMember } from './memberAdmin'
import { identitySettings, type IdentitySettings } from './settings'

export interface FirstMemberEnv {
  EMBERLINE_ADMIN_EMAIL?: string
  EMBERLINE_ADMIN_PASSWORD?: string
  EMBERLINE_ADMIN_PHONE?: string
}

/**
 * Runs `create`; when it fails because another server starting at the same time created the
 * member first (`exists` now holds: the insert met the unique e-mail), answers null instead.
 */
async function unlessCreatedElsewhere<T>(create: () => Promise<T>, exists: () => Promise<boolean>) {
  try {
    return await create()
  } catch (err) {
    if (await exists()) return null
    throw err
  }
}

/** The phone number of the generated demo member (a 555 number: SMS codes only reach the outbox). */
export const DEMO_PHONE = '+15055550123'

/**
 * First start: creates the member named by EMBERLINE_ADMIN_EMAIL / _PASSWORD / _PHONE when it
 * does not exist yet; with no such variables and no members at all, creates a demo member and
 * prints its e-mail and generated password once. Returns the created e-mail, or null (also on
 * the server that lost the race when several start together on an empty database).
 */
export async function ensureFirstMember(
  db: AccountsSource,
  env: FirstMemberEnv,
  print: (line: string) => void,
  opts: { dataDir: string; settings?: IdentitySettings; now?: number } = { dataDir: 'var' },
): Promise<string | null> {
  const settings = opts.settings ?? identitySettings
  const { members } = identityStorage(db)
  const now = opts.now ?? Date.now()
  const outbox = path.join(opts.dataDir, 'outbox', 'sms.jsonl')
  const roles = settings.rbac.firstMemberRoles
  if (env.EMBERLINE_ADMIN_EMAIL) {
    if (await members.memberByEmail(env.EMBERLINE_ADMIN_EMAIL)) return null
    if (!env.EMBERLINE_ADMIN_PASSWORD)
      throw new Error('EMBERLINE_ADMIN_EMAIL is set but EMBERLINE_ADMIN_PASSWORD is not')
    const email = env.EMBERLINE_ADMIN_EMAIL
    const input = {
      email,
      password: env.EMBERLINE_ADMIN_PASSWORD,
      phone: env.EMBERLINE_ADMIN_PHONE || null,
      roles,
      trustedPassword: true,
    }
    const member = await unlessCreatedElsewhere(
      () => createMember(members, settings, input, now),
      async () => (await members.memberByEmail(email)) !== null,
    )
    if (!member) return null
    print(
      `[identity] Created member ${member.email} from EMBERLINE_ADMIN_EMAIL (roles: ${roles.join(', ')}).`,
    )
    if (!member.phone)
      print('[identity] No EMBERLINE_ADMIN_PHONE: set one with `npm run users -- set-phone` to sign in.')
    return member.email
  }
  if ((await members.countMembers()) > 0) return null
  const password = newToken(12)
  const demo = {
    email: `operator@${settings.organizationSlug}.example`,
    name: 'Demo operator',
    phone: DEMO_PHONE,
    password,
    roles,
  }
  const member = await unlessCreatedElsewhere(
    () => createMember(members, settings, demo, now),
    async () => (await members.memberByEmail(demo.email)) !== null,
  )
  if (!member) return null
  print('[identity] ------------------------------------------------------------------')
  print(`[identity] Demo member created. E-mail: ${member.email}  Password: ${password}`)
  print('[identity] This password is shown only once (change it: npm run users -- reset-password).')
  print(`[identity] SMS sign-in codes are printed here and appended to ${outbox}.`)
  print('[identity] ------------------------------------------------------------------')
  return member.email
}
