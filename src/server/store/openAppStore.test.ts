import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultCatalog } from './catalog'
import { openAppStore, StoreSetupError, storeSettings } from './openAppStore'
import { testPg, type TestPg } from './pg/testing/pgTestDatabase'
import { redactedUrl } from './storeSettings'

describe('storeSettings', () => {
  it('defaults to SQLite in DATA_DIR (./var)', () => {
    expect(storeSettings({})).toEqual({ kind: 'sqlite', dataDir: path.resolve('./var') })
    expect(storeSettings({ STORE: 'sqlite', DATA_DIR: '/tmp/x' })).toEqual({
      kind: 'sqlite',
      dataDir: '/tmp/x',
    })
    expect(storeSettings({ DATA_DIR: '/tmp/x' }, '/tmp/y').dataDir).toBe('/tmp/y')
  })

  it('reads STORE=postgres, DATABASE_URL and DATABASE_POOL_SIZE', () => {
    expect(
      storeSettings({ STORE: 'postgres', DATABASE_URL: 'postgres://u@h:5432/d', DATA_DIR: '/s' }),
    ).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h:5432/d',
      poolSize: 10,
      dataDir: '/s',
    })
    const s = storeSettings({
      STORE: 'PostgreSQL',
      DATABASE_URL: 'postgresql://h/d',
      DATABASE_POOL_SIZE: '25',
    })
    expect(s).toMatchObject({ kind: 'postgres', poolSize: 25 })
  })

  it('names the variable to fix in one line', () => {
    const problem = (env: NodeJS.ProcessEnv) => {
      try {
        storeSettings(env)
      } catch (e) {
        expect(e).toBeInstanceOf(StoreSetupError)
        return (e as Error).message
      }
      return null
    }
    expect(problem({ STORE: 'mysql' })).toBe("STORE must be sqlite or postgres, got 'mysql'")
    expect(problem({ STORE: 'postgres' })).toMatch(/^STORE=postgres needs DATABASE_URL/)
    expect(problem({ STORE: 'postgres', DATABASE_URL: 'not a url' })).toMatch(/^DATABASE_URL is not a URL/)
    expect(problem({ STORE: 'postgres', DATABASE_URL: 'mysql://h/d' })).toMatch(
      /^DATABASE_URL must start with postgres:/,
    )
    expect(problem({ STORE: 'postgres', DATABASE_URL: 'postgres://h/d', DATABASE_POOL_SIZE: '0' })).toMatch(
      /^DATABASE_POOL_SIZE must be a whole number/,
    )
  })

  it('never shows the password', () => {
    expect(redactedUrl('postgres://u:secret@h:5432/d')).toBe('postgres://u:***@h:5432/d')
    expect(redactedUrl('postgres://u@h/d')).toBe('postgres://u@h/d')
  })
})

describe('openAppStore', () => {
  let t: TestPg
  beforeAll(async () => {
    t = await testPg({ migrate: false })
  })
  afterAll(() => t.drop())

  it('opens (and migrates) the PostgreSQL store on DATABASE_URL', async () => {
    const opened = await openAppStore({ STORE: 'postgres', DATABASE_URL: t.url }, defaultCatalog())
    try {
      expect(opened.kind).toBe('postgres')
      expect(await opened.store.info('buildings')).toMatchObject({ count: 0 })
      const applied = await t.db.query<{ n: number }>('SELECT count(*) AS n FROM schema_migrations')
      expect(applied[0]?.n).toBeGreaterThan(0)
    } finally {
      await opened.store.close()
    }
  })

  it('opens SQLite in DATA_DIR by default', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-open-'))
    const opened = await openAppStore({ DATA_DIR: dir }, defaultCatalog())
    expect(opened.kind).toBe('sqlite')
    await opened.store.close()
    expect(fs.existsSync(path.join(dir, 'emberline.sqlite'))).toBe(true)
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('refuses an unreachable database with one line naming it (password hidden)', async () => {
    const err = await openAppStore(
      { STORE: 'postgres', DATABASE_URL: 'postgres://u:secret@127.0.0.1:1/none' },
      defaultCatalog(),
    ).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(StoreSetupError)
    const message = (err as Error).message
    expect(message).toMatch(
      /^cannot use the database at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/none: .*ECONNREFUSED/,
    )
    expect(message).not.toContain('secret')
    expect(message).not.toContain('\n')
  })
})
