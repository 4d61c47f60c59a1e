import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { openAccountsDb } from './accountsDb'
import { createIdentityStore } from './identityStore'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

describe('IdentityStore.changeStamp', () => {
  it('changes on a write through this connection and on a commit by another process', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-stamp-'))
    dirs.push(dir)
    const db = openAccountsDb(dir)
    const store = createIdentityStore(db)
    const stamp = () => store.changeStamp?.()
    expect(typeof stamp()).toBe('number')
    const first = stamp()
    expect(stamp()).toBe(first)
    db.exec("INSERT INTO identity_audit (at, event, detail) VALUES (1, 'x', '{}')")
    const second = stamp()
    expect(second).not.toBe(first)
    // Another connection (the users CLI, another server) commits: seen at the next read.
    const other = new Database(db.name)
    other.exec("INSERT INTO identity_audit (at, event, detail) VALUES (2, 'y', '{}')")
    other.close()
    expect(stamp()).not.toBe(second)
    db.close()
  })
})
