import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { migrate } from './migrate'

function migrationsDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'migrate-'))
  writeFileSync(path.join(dir, '001_things.sql'), 'CREATE TABLE things (id INTEGER PRIMARY KEY);')
  writeFileSync(path.join(dir, '002_more.sql'), 'CREATE TABLE more_things (id INTEGER PRIMARY KEY);')
  return dir
}

describe('migrate', () => {
  it('applies each migration once, in order, and reports what it applied', () => {
    const dir = migrationsDir()
    const db = new Database(path.join(dir, 'store.sqlite'))
    expect(migrate(db, dir)).toEqual([1, 2])
    expect(migrate(db, dir)).toEqual([])
    expect(db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all()).toEqual([
      { version: 1, name: 'things' },
      { version: 2, name: 'more' },
    ])
    db.close()
  })

  it('two processes opening a fresh file together: the one that loses the race skips what the other applied', () => {
    const dir = migrationsDir()
    const file = path.join(dir, 'store.sqlite')
    const winner = new Database(file)
    const loser = new Database(file)
    // The other process migrates between the loser's first look and its first transaction
    // (a server and `npm run import-grid` started at once: CI saw "table … already exists").
    let raced = false
    const racing = new Proxy(loser, {
      get(target, key) {
        if (key === 'transaction' && !raced) {
          raced = true
          expect(migrate(winner, dir)).toEqual([1, 2])
        }
        const value: unknown = Reflect.get(target, key)
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
      },
    })
    expect(migrate(racing, dir)).toEqual([])
    expect(raced).toBe(true)
    expect(loser.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(2)
    winner.close()
    loser.close()
  })
})
