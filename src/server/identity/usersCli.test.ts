import Database from 'better-sqlite3'
import { beforeEach, describe, expect, it } from 'vitest'
import { createIdentityStore } from '../store/identityStore'
import { ACCOUNTS_MIGRATIONS_DIR } from '../store/accountsDb'
import { migrate } from '../store/migrate'
import { verifyPassword } from './crypto'
import { ensureFirstMember } from './firstMember'
import { runUsersCli } from './usersCli'

let db: Database.Database
let out: string[]
const run = (...argv: string[]) => runUsersCli(argv, { db, print: (l) => out.push(l), now: () => 1_000 })

beforeEach(() => {
  db = new Database(':memory:')
  migrate(db, ACCOUNTS_MIGRATIONS_DIR)
  out = []
})

describe('npm run users', () => {
  it('adds a member with a generated password printed once', async () => {
    expect(await run('add', 'Ann@X.test', '--phone', '+1 (505) 555-0100', '--name', 'Ann')).toBe(0)
    const member = await createIdentityStore(db).memberByEmail('ann@x.test')
    expect(member).toMatchObject({
      email: 'ann@x.test',
      phone: '+15055550100',
      roles: ['stytch_member'],
      name: 'Ann',
    })
    const password = out.find((l) => l.startsWith('password: '))?.slice(10) ?? ''
    expect(await verifyPassword(password, member?.passwordHash ?? '')).toBe(true)
    expect(await run('add', 'ann@x.test')).toBe(1)
    expect(out.at(-1)).toContain('already exists')
  })

  it('validates e-mail, phone, roles and password rules', async () => {
    expect(await run('add', 'not-an-email')).toBe(1)
    expect(await run('add', 'b@x.test', '--phone', '555')).toBe(1)
    expect(await run('add', 'b@x.test', '--roles', 'root')).toBe(1)
    expect(await run('add', 'b@x.test', '--password', 'short')).toBe(1)
    expect(await run('frobnicate')).toBe(2)
    expect(await run()).toBe(2)
  })

  it('disables (ending sessions), enables, resets the password, sets phone and roles, lists', async () => {
    await run('add', 'c@x.test', '--password', 'A-good-long-passphrase')
    const store = createIdentityStore(db)
    const id = (await store.memberByEmail('c@x.test'))?.memberId ?? ''
    await store.insertSession(
      {
        sessionId: 's',
        memberId: id,
        factors: [],
        startedAt: 0,
        lastAccessedAt: 0,
        expiresAt: 10_000,
        revokedAt: null,
      },
      'h',
    )
    expect(await run('disable', 'c@x.test')).toBe(0)
    expect((await store.memberById(id))?.status).toBe('inactive')
    expect((await store.sessionById('s'))?.revokedAt).toBe(1_000)
    expect(await run('enable', 'c@x.test')).toBe(0)
    expect(await run('reset-password', 'c@x.test', '--password', 'Another-long-passphrase')).toBe(0)
    expect(
      await verifyPassword('Another-long-passphrase', (await store.memberById(id))?.passwordHash ?? ''),
    ).toBe(true)
    expect(await run('set-phone', 'c@x.test', '+15055550111')).toBe(0)
    expect(await run('set-roles', 'c@x.test', 'stytch_member,stytch_admin')).toBe(0)
    expect(await store.memberById(id)).toMatchObject({
      status: 'active',
      phone: '+15055550111',
      roles: ['stytch_member', 'stytch_admin'],
    })
    out = []
    expect(await run('list')).toBe(0)
    expect(out[0]).toContain('c@x.test')
    expect(await run('audit')).toBe(0)
    expect(out.join('\n')).toContain('member.disabled')
    expect(await run('disable', 'nobody@x.test')).toBe(1)
  })
})

describe('first start', () => {
  it('creates the member from EMBERLINE_ADMIN_* once, without printing the password', async () => {
    const env = {
      EMBERLINE_ADMIN_EMAIL: 'boss@x.test',
      EMBERLINE_ADMIN_PASSWORD: 'pw',
      EMBERLINE_ADMIN_PHONE: '+15055550142',
    }
    expect(await ensureFirstMember(db, env, (l) => out.push(l), { dataDir: '/tmp/x' })).toBe('boss@x.test')
    expect(await ensureFirstMember(db, env, (l) => out.push(l), { dataDir: '/tmp/x' })).toBeNull()
    expect(out.join('\n')).not.toContain('pw')
    expect((await createIdentityStore(db).memberByEmail('boss@x.test'))?.roles).toContain('stytch_admin')
  })

  it('creates the member once when two servers start together on an empty database', async () => {
    const env = { EMBERLINE_ADMIN_EMAIL: 'boss@x.test', EMBERLINE_ADMIN_PASSWORD: 'pw' }
    const start = () => ensureFirstMember(db, env, (l) => out.push(l), { dataDir: '/tmp/x' })
    expect((await Promise.all([start(), start()])).sort()).toEqual(['boss@x.test', null])
    const demo = () => ensureFirstMember(db, {}, (l) => out.push(l), { dataDir: '/tmp/x' })
    db.exec('DELETE FROM identity_members')
    expect((await Promise.all([demo(), demo()])).filter(Boolean)).toHaveLength(1)
    expect(await createIdentityStore(db).countMembers()).toBe(1)
  })

  it('otherwise creates a demo member and prints its password and the outbox path once', async () => {
    const email = await ensureFirstMember(db, {}, (l) => out.push(l), { dataDir: '/tmp/x' })
    const text = out.join('\n')
    const password = /Password: (\S+)/.exec(text)?.[1] ?? ''
    expect(text).toContain(`E-mail: ${email}`)
    expect(text).toContain('/tmp/x/outbox/sms.jsonl')
    expect(
      await verifyPassword(
        password,
        (await createIdentityStore(db).memberByEmail(email ?? ''))?.passwordHash ?? '',
      ),
    ).toBe(true)
    expect(await ensureFirstMember(db, {}, () => {}, { dataDir: '/tmp/x' })).toBeNull()
  })
})
