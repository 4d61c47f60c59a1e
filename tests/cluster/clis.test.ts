import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultCatalog } from '../../src/server/store/catalog'
import { openPgStore, type PgStore } from '../../src/server/store/pg/pgStore'
import { testPg, type TestPg } from '../../src/server/store/pg/testing/pgTestDatabase'

// The CLIs (`npm run seed | users | feed | import`) and the server work against DATABASE_URL
// with STORE=postgres, and refuse a wrong setting or an unreachable database in one line.

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '../..')
const tsx = path.join(root, 'node_modules/.bin/tsx')

let pg: TestPg
let store: PgStore
let scratch: string

beforeAll(async () => {
  pg = await testPg()
  store = await openPgStore(pg.url, defaultCatalog(), { max: 2 })
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-clis-'))
})
afterAll(async () => {
  await store?.close()
  await pg?.drop()
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true })
})

async function cli(script: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(tsx, [`scripts/${script}.ts`, ...args], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: scratch,
        STORE: 'postgres',
        DATABASE_URL: pg.url,
        ...env,
      },
      timeout: 120_000,
    })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string }
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' }
  }
}

describe('CLIs on DATABASE_URL', () => {
  it('users: adds and lists members in the shared database', async () => {
    const add = await cli('users', [
      'add',
      'planner@emberline-cli.test',
      '--phone',
      '+15055550177',
      '--password',
      'a long enough password 1',
    ])
    expect(add.code, add.stderr).toBe(0)
    expect(await store.members.memberByEmail('planner@emberline-cli.test')).toMatchObject({
      phone: '+15055550177',
    })
    const list = await cli('users', ['list'])
    expect(list.stdout).toContain('planner@emberline-cli.test')
  }, 120_000)

  it('seed: fills the shared database with the demo data', async () => {
    const seeded = await cli('seed', ['--buildings', '300'])
    expect(seeded.code, seeded.stderr).toBe(0)
    expect(seeded.stdout).toMatch(/^seeded postgres:\/\/.* \(300 buildings/m)
    store.datasetReplaced('buildings')
    expect((await store.info('buildings')).count).toBe(300)
  }, 120_000)

  it('feed: runs a feed once into the shared database', async () => {
    const file = path.join(root, 'tests/fixtures/feeds/hms_smoke20261006_trimmed.kml')
    const ran = await cli('feed', [
      'hms-smoke',
      '--file',
      file,
      '--now',
      '2026-10-07T01:00:00Z',
      '--bbox',
      '-180,-90,180,90',
    ])
    expect(ran.code, ran.stderr).toBe(0)
    store.datasetReplaced('observed_smoke')
    expect((await store.info('observed_smoke')).count).toBe(4)
    expect(await store.feeds.status('hms-smoke')).toMatchObject({ failures: 0 })
  }, 120_000)

  it('import-grid: replaces a grid in the shared database', async () => {
    const tif = path.join(scratch, 'epss.tif')
    await run('gdal_create', [
      '-of',
      'GTiff',
      '-outsize',
      '20',
      '10',
      '-bands',
      '1',
      '-ot',
      'Float32',
      '-burn',
      '7',
      '-a_srs',
      'EPSG:4326',
      '-a_ullr',
      '-109',
      '37',
      '-103',
      '31',
      tif,
    ])
    const imported = await cli('import-grid', ['epss_score', tif])
    expect(imported.code, imported.stderr).toBe(0)
    expect(await store.grids.version('epss_score')).toMatch(/^[0-9a-f]+$/)
    expect(await store.grids.grid('epss_score')).toMatchObject({ nx: 20, ny: 10 })
  }, 120_000)

  it('refuses a missing DATABASE_URL or an unreachable database in one line, without a stack trace', async () => {
    for (const script of ['users', 'seed', 'import']) {
      const args =
        script === 'import'
          ? ['buildings', path.join(root, 'package.json')]
          : script === 'users'
            ? ['list']
            : []
      const missing = await cli(script, args, { DATABASE_URL: '' })
      expect(missing.code, script).toBe(1)
      expect(missing.stderr.trim(), script).toBe(
        'emberline: STORE=postgres needs DATABASE_URL (postgres://user:password@host:5432/database)',
      )
      const down = await cli(script, args, {
        DATABASE_URL: 'postgres://emberline:secret@127.0.0.1:1/emberline',
      })
      expect(down.code, script).toBe(1)
      expect(down.stderr.trim(), script).toMatch(
        /^emberline: cannot use the database at postgres:\/\/emberline:\*\*\*@127\.0\.0\.1:1\/emberline: .*ECONNREFUSED[^\n]*$/,
      )
    }
  }, 120_000)

  it('the server refuses them the same way', async () => {
    const server = (env: Record<string, string>) =>
      run(tsx, ['src/server/main.ts'], {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATA_DIR: scratch,
          PORT: '0',
          STORE: 'postgres',
          ...env,
        },
        timeout: 60_000,
      }).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code?: number; stderr?: string }) => ({ code: e.code ?? -1, stderr: e.stderr ?? '' }),
      )
    const missing = await server({})
    expect(missing).toEqual({
      code: 1,
      stderr: 'emberline: STORE=postgres needs DATABASE_URL (postgres://user:password@host:5432/database)\n',
    })
    const wrong = await server({ STORE: 'oracle' })
    expect(wrong).toEqual({ code: 1, stderr: "emberline: STORE must be sqlite or postgres, got 'oracle'\n" })
    const down = await server({ DATABASE_URL: 'postgres://u:secret@127.0.0.1:1/x' })
    expect(down.code).toBe(1)
    expect(down.stderr).toMatch(
      /^emberline: cannot use the database at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/x: [^\n]*\n$/,
    )
  }, 120_000)
})
