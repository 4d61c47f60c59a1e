import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migratePg, pgDatabase } from './pgDatabase'
import { testPg, type TestPg } from './testing/pgTestDatabase'

let t: TestPg
beforeAll(async () => {
  t = await testPg({ migrate: false })
})
afterAll(async () => t.drop())

describe('migratePg', () => {
  it('applies each migration once when several servers start together', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-pgmig-'))
    fs.mkdirSync(path.join(dir, 'data'))
    fs.mkdirSync(path.join(dir, 'accounts'))
    // A migration that fails when run twice: a second run would hit the primary key.
    fs.writeFileSync(
      path.join(dir, 'data', '001_a.sql'),
      'CREATE TABLE once (n int PRIMARY KEY); INSERT INTO once VALUES (1);',
    )
    fs.writeFileSync(path.join(dir, 'accounts', '001_b.sql'), 'INSERT INTO once VALUES (2);')
    const servers = [0, 1, 2].map(() => pgDatabase({ url: t.url, max: 2 }))
    try {
      const applied = await Promise.all(servers.map((s) => migratePg(s, dir)))
      expect(applied.flat().sort()).toEqual(['accounts/001', 'data/001'])
      expect(await t.db.query('SELECT n FROM once ORDER BY n')).toEqual([{ n: 1 }, { n: 2 }])
      expect(await migratePg(t.db, dir)).toEqual([])
    } finally {
      await Promise.all(servers.map((s) => s.close()))
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('rolls a failed migration back and names its file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-pgmig-'))
    fs.mkdirSync(path.join(dir, 'data'))
    fs.writeFileSync(path.join(dir, 'data', '005_bad.sql'), 'CREATE TABLE half (n int); SELECT no_such_fn();')
    try {
      await expect(migratePg(t.db, dir)).rejects.toThrow(/data\/005_bad\.sql failed/)
      expect(await t.db.query(`SELECT to_regclass('half') AS t`)).toEqual([{ t: null }])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('PgDatabase.tx', () => {
  it('commits all or nothing, and nested store calls join the transaction', async () => {
    await t.db.run('CREATE TABLE IF NOT EXISTS txt (n int)')
    await t.db.tx(async () => {
      await t.db.run('INSERT INTO txt VALUES (1)')
      await t.db.tx(async () => t.db.run('INSERT INTO txt VALUES (2)'))
    })
    await expect(
      t.db.tx(async () => {
        await t.db.run('INSERT INTO txt VALUES (3)')
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    expect(await t.db.query('SELECT n FROM txt ORDER BY n')).toEqual([{ n: 1 }, { n: 2 }])
  })
})
