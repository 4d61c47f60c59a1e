import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testPg, type TestPg } from '../store/pg/testing/pgTestDatabase'
import { DATASET_CHANNEL, DatasetChannel, parseDatasetNotice, type DatasetNotice } from './datasetChannel'
import { DatasetSync } from './datasetSync'

let t: TestPg
beforeAll(async () => {
  t = await testPg({ migrate: false })
})
afterAll(() => t.drop())

async function until(ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 20))
  }
}

const notify = (payload: string) => t.db.query('SELECT pg_notify($1, $2)', [DATASET_CHANNEL, payload])

describe('parseDatasetNotice', () => {
  it('reads {id, version} and refuses anything else', () => {
    expect(parseDatasetNotice('{"id":"buildings","version":7}')).toEqual({ id: 'buildings', version: 7 })
    expect(parseDatasetNotice('{"id":"buildings"}')).toEqual({ id: 'buildings', version: null })
    for (const bad of [undefined, '', 'buildings', '[]', '{"id":3}', '{"id":""}', 'null', '{'])
      expect(parseDatasetNotice(bad), String(bad)).toBeNull()
  })
})

describe('DatasetChannel', () => {
  it('hears notices committed through any connection, and re-listens after its connection dies', async () => {
    const notices: DatasetNotice[] = []
    let listening = 0
    const channel = new DatasetChannel({
      url: t.url,
      retryMs: 50,
      onChange: (n) => notices.push(n),
      onListening: () => listening++,
    })
    await channel.start()
    expect(listening).toBe(1)
    await notify('{"id":"buildings","version":2}')
    await notify('not json')
    await until(() => notices.length === 1)
    expect(notices).toEqual([{ id: 'buildings', version: 2 }])
    // A notice inside a transaction arrives on commit only.
    await t.db.tx(async () => {
      await notify('{"id":"lines","version":3}')
      await new Promise((r) => setTimeout(r, 100))
      expect(notices).toHaveLength(1)
    })
    await until(() => notices.length === 2)

    await t.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'emberline-listen' AND datname = current_database()`,
    )
    await until(() => listening === 2)
    expect(channel.connections).toBe(2)
    await notify('{"id":"points","version":4}')
    await until(() => notices.length === 3)
    await channel.close()
  })

  it('keeps retrying while the database is unreachable', async () => {
    const warnings: string[] = []
    const channel = new DatasetChannel({
      url: 'postgres://postgres@127.0.0.1:1/none',
      retryMs: 20,
      onChange: () => undefined,
      onListening: () => undefined,
      warn: (m) => warnings.push(m),
    })
    await channel.start()
    await until(() => warnings.length >= 3)
    expect(channel.listening).toBe(false)
    await channel.close()
  })
})

describe('DatasetSync', () => {
  function fakeStore(versions: Record<string, number>) {
    const replaced: string[] = []
    return {
      versions,
      replaced,
      catalog: { datasets: Object.keys(versions).map((id) => ({ id })) },
      info: async (id: string) => ({ version: versions[id] ?? 0, count: 0, bbox: null }),
      datasetReplaced: (id: string) => void replaced.push(id),
    }
  }

  it('refreshes a dataset whose version moved, once, and nothing for a stale notice', async () => {
    const store = fakeStore({ a: 1, b: 1 })
    const refreshed: string[] = []
    const sync = new DatasetSync(store, (id, v) => void refreshed.push(`${id}@${v}`))
    await sync.baseline()
    await sync.changed('a')
    expect(refreshed).toEqual([])
    store.versions.a = 2
    await sync.changed('a')
    await sync.changed('a')
    await sync.changed('unknown')
    expect(refreshed).toEqual(['a@2'])
    expect(store.replaced).toEqual(['a', 'a', 'a'])
  })

  it('re-checks every dataset on resync (a notice missed while disconnected)', async () => {
    const store = fakeStore({ a: 1, b: 1 })
    const refreshed: string[] = []
    const sync = new DatasetSync(store, (id, v) => void refreshed.push(`${id}@${v}`))
    await sync.baseline()
    store.versions.b = 5
    await sync.resync()
    expect(refreshed).toEqual(['b@5'])
  })

  it('keeps going after a refresh fails', async () => {
    const store = fakeStore({ a: 1 })
    const warnings: string[] = []
    let calls = 0
    const sync = new DatasetSync(
      store,
      () => {
        calls++
        throw new Error('boom')
      },
      (m) => warnings.push(m),
    )
    store.versions.a = 2
    await sync.changed('a')
    store.versions.a = 3
    await sync.changed('a')
    expect(calls).toBe(2)
    expect(warnings).toHaveLength(2)
  })
})
