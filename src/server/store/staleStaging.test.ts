import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultCatalog } from './catalog'
import { openStore, STORE_FILE } from './sqliteStore'

// A killed import (kill -9 half-way through a replacement) leaves its staging table, committed
// in batches; the next open of the store drops it — but never the staging table of an import
// that is still running in another process.
const root = path.resolve(import.meta.dirname, '../../..')
let dir: string
let child: ChildProcess | undefined

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-stale-staging-'))
  openStore(dir, defaultCatalog()).close()
})
afterEach(() => {
  child?.kill('SIGKILL')
  fs.rmSync(dir, { recursive: true, force: true })
})

/** An import in another process, hanging half-way (its first batches committed). */
async function hangingImport(): Promise<ChildProcess> {
  const c = spawn(process.execPath, ['--import', 'tsx', 'src/server/store/testing/hangingImport.ts', dir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((resolve, reject) => {
    c.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('filling')) resolve()
    })
    c.once('exit', (code) => reject(new Error(`import exited early (${code})`)))
  })
  return c
}

function stagedRows(): number | null {
  const db = new Database(path.join(dir, STORE_FILE), { readonly: true })
  try {
    const t = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'ds_buildings__staging'").get()
    return t ? Number(db.prepare('SELECT count(*) FROM ds_buildings__staging').pluck().get()) : null
  } finally {
    db.close()
  }
}

describe('stale staging tables (SQLite)', () => {
  it("keeps a running import's staging table and drops it at the next open once the import was killed", async () => {
    child = await hangingImport()
    expect(stagedRows()).toBeGreaterThan(50_000)
    // Another process opens the store while the import runs: the import's table stays.
    openStore(dir, defaultCatalog()).close()
    expect(stagedRows()).toBeGreaterThan(50_000)
    const exited = new Promise((resolve) => child?.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
    expect(stagedRows()).toBeGreaterThan(50_000)
    const store = openStore(dir, defaultCatalog())
    expect(stagedRows()).toBeNull()
    // The live data is untouched and the next import still works.
    expect(store.info('buildings').count).toBe(0)
    store.close()
  })

  it('drops an ownerless staging table (left by an earlier version) before any import', () => {
    const db = new Database(path.join(dir, STORE_FILE))
    db.exec('CREATE TABLE ds_buildings__staging (id INTEGER PRIMARY KEY, geom BLOB)')
    db.exec('CREATE TABLE ds_buildings__old (id INTEGER PRIMARY KEY, geom BLOB)')
    db.close()
    openStore(dir, defaultCatalog()).close()
    const check = new Database(path.join(dir, STORE_FILE), { readonly: true })
    const names = check
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ds_buildings%'")
      .pluck()
      .all()
    check.close()
    expect(names).toEqual(['ds_buildings'])
  })
})
