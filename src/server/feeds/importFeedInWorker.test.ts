import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { feedsConfig } from '../../shared/config'
import { defaultCatalog } from '../store/catalog'
import { openStore, type SqliteStore } from '../store/sqliteStore'
import { FeedRunError } from './importFeed'
import { importFeedInWorker } from './importFeedInWorker'

// The server's poller imports through a worker thread: the event loop keeps turning meanwhile
// (sign-in is never held up by a feed), and this thread's store sees the new data at once.
const FIX = path.resolve(import.meta.dirname, '../../../tests/fixtures/feeds')
const NOW = Date.parse('2025-11-05T12:00:00Z')
const stores: SqliteStore[] = []
afterEach(() => {
  for (const s of stores.splice(0)) s.close()
})

function tempStore(): SqliteStore {
  const store = openStore(fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-feed-worker-')), defaultCatalog())
  stores.push(store)
  return store
}

const viirs = feedsConfig.feeds.find((f) => f.id === 'firms-viirs')
const meta = { source: 'test', etag: null, lastModified: null }

/** Event-loop turns until `work` settles. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0
  let done = false
  const spin = () => {
    if (done) return
    turns += 1
    setImmediate(spin)
  }
  setImmediate(spin)
  try {
    return { result: await work(), turns }
  } finally {
    done = true
  }
}

describe('importFeedInWorker', () => {
  it('imports off the event loop; the calling store serves the new version at once', async () => {
    if (!viirs) throw new Error('no firms-viirs feed')
    const store = tempStore()
    const before = store.info('thermal_hot_spots').version
    const text = fs.readFileSync(path.join(FIX, 'viirs_snpp_conus_7d_2025-11-05_nm.csv'), 'utf8')
    const { result, turns } = await turnsDuring(() =>
      importFeedInWorker({ store, config: feedsConfig, now: NOW }, viirs, text, meta),
    )
    expect(result).toMatchObject({ read: 305, kept: 107, stored: 107 })
    // An in-thread import runs to its end without giving the loop a turn.
    expect(turns).toBeGreaterThan(3)
    expect(store.info('thermal_hot_spots')).toMatchObject({ version: before + 1, count: 107 })
    expect(store.records('thermal_hot_spots', [], 1, 0).total).toBe(107)
  })

  it('a body that is not the declared format fails with the worker’s message and changes nothing', async () => {
    if (!viirs) throw new Error('no firms-viirs feed')
    const store = tempStore()
    const version = store.info('thermal_hot_spots').version
    const failed = importFeedInWorker(
      { store, config: feedsConfig, now: NOW },
      viirs,
      '<!DOCTYPE html><html><body>502</body></html>',
      meta,
    )
    await expect(failed).rejects.toThrow(FeedRunError)
    await expect(failed).rejects.toThrow(/not CSV/)
    expect(store.info('thermal_hot_spots').version).toBe(version)
  })
})
