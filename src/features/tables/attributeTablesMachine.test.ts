import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromCallback, fromPromise } from 'xstate'
import { attributeTablesMachine, type LoadRecordsInput } from './attributeTablesMachine'
import type { TableDefinition } from '../../shared/config'
import type { TableRecord } from './fetchRecords'

const column = (key: string, type: 'number' | 'string') => ({
  key,
  label: key,
  type,
  filterable: true,
})
const tables: TableDefinition[] = ['a', 'b', 'c'].map((id) => ({
  id,
  name: `Table ${id.toUpperCase()}`,
  layer: `layer_${id}`,
  dataset: id,
  tabularDataUrl: `data/${id}/records`,
  columns: [column('name', 'string'), column('acres', 'number')],
}))

function rows(n: number, from = 0): TableRecord[] {
  return Array.from({ length: n }, (_, i) => ({ name: `row ${from + i}`, acres: from + i }))
}

function start() {
  const requests: LoadRecordsInput[] = []
  const failures: { tableName: string; message: string }[] = []
  const machine = attributeTablesMachine.provide({
    actors: {
      loadRecords: fromPromise<void, LoadRecordsInput>(async ({ input }) => {
        requests.push(input)
      }),
      watchDatasetVersions: fromCallback(() => undefined),
    },
    actions: { notifyLoadFailed: (_, params) => void failures.push(params) },
  })
  const actor = createActor(machine, { input: { tables, itemsPerPage: 100, startPage: 1 } }).start()
  const last = (): LoadRecordsInput => {
    const request = requests.at(-1)
    if (!request) throw new Error('no request')
    return request
  }
  const answer = (records: TableRecord[], total: number, request = last()) =>
    actor.send({
      type: 'records.loaded',
      tableId: request.tableId,
      requestId: request.requestId,
      page: { records, total },
    })
  const query = (request = last()) => new URL(request.url, 'http://x').searchParams
  return { actor, requests, failures, last, answer, query, snap: () => actor.getSnapshot() }
}

describe('attributeTablesMachine', () => {
  it('starts with the panel hidden and nothing open', () => {
    const { snap } = start()
    expect(snap().value).toBe('hidden')
    expect(snap().context.currentTableId).toBeNull()
    expect(snap().context.openOrder).toEqual([])
    expect(snap().context.tables.a?.page).toBe(1)
  })

  it('opening a table opens it, fetches page 1 with its filters, shows the panel and makes it current', () => {
    const { actor, snap, last, query } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    expect(snap().value).toBe('shown')
    expect(snap().context.currentTableId).toBe('a')
    expect(snap().context.tables.a).toMatchObject({ isOpen: true, loading: true })
    expect(last().url.startsWith('/api/data/a/records?')).toBe(true)
    expect(query().get('limit')).toBe('100')
    expect(query().get('offset')).toBe('0')
    expect(query().getAll('filters')).toEqual([])
  })

  it('stores the answer: rows and total, loading off', () => {
    const { actor, snap, answer } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    answer(rows(100), 250)
    expect(snap().context.tables.a).toMatchObject({ loading: false, total: 250, lastAnswerEmpty: false })
    expect(snap().context.tables.a?.rows).toHaveLength(100)
  })

  it('opening a second table makes it current; selecting a tab switches the current table', () => {
    const { actor, snap, requests } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    actor.send({ type: 'table.open', tableId: 'b' })
    expect(snap().context.openOrder).toEqual(['a', 'b'])
    expect(snap().context.currentTableId).toBe('b')
    expect(requests.map((r) => r.tableId)).toEqual(['a', 'b'])
    actor.send({ type: 'table.select', tableId: 'a' })
    expect(snap().context.currentTableId).toBe('a')
    actor.send({ type: 'table.select', tableId: 'c' })
    expect(snap().context.currentTableId).toBe('a')
  })

  it('opening an already open table keeps one tab, makes it current and re-fetches', () => {
    const { actor, snap, requests } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    actor.send({ type: 'table.open', tableId: 'b' })
    actor.send({ type: 'table.open', tableId: 'a' })
    expect(snap().context.openOrder).toEqual(['a', 'b'])
    expect(snap().context.currentTableId).toBe('a')
    expect(requests).toHaveLength(3)
  })

  it('closing the current table makes the first remaining open table current', () => {
    const { actor, snap } = start()
    for (const tableId of ['a', 'b', 'c']) actor.send({ type: 'table.open', tableId })
    actor.send({ type: 'table.close', tableId: 'c' })
    expect(snap().value).toBe('shown')
    expect(snap().context.currentTableId).toBe('a')
    expect(snap().context.tables.c?.isOpen).toBe(false)
    actor.send({ type: 'table.close', tableId: 'a' })
    expect(snap().context.currentTableId).toBe('b')
  })

  it('closing a table that is not current keeps the current table', () => {
    const { actor, snap } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    actor.send({ type: 'table.open', tableId: 'b' })
    actor.send({ type: 'table.close', tableId: 'a' })
    expect(snap().context.currentTableId).toBe('b')
    expect(snap().context.openOrder).toEqual(['b'])
  })

  it('closing the last open table hides the panel', () => {
    const { actor, snap } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    actor.send({ type: 'table.close', tableId: 'a' })
    expect(snap().value).toBe('hidden')
    expect(snap().context.currentTableId).toBeNull()
    expect(snap().context.tables.a?.isOpen).toBe(false)
  })

  it('adding a numeric filter re-fetches the current table from page 1 with the operator as type', () => {
    const { actor, snap, query, answer, requests } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    answer(rows(100), 300)
    actor.send({ type: 'page.set', page: 3 })
    expect(query().get('offset')).toBe('200')
    actor.send({
      type: 'filter.add',
      filter: { columnType: 'number', field: 'acres', value: 10, operator: 'gte' },
    })
    expect(requests).toHaveLength(3)
    expect(snap().context.tables.a?.page).toBe(1)
    expect(query().get('offset')).toBe('0')
    expect(
      query()
        .getAll('filters')
        .map((f) => JSON.parse(f)),
    ).toEqual([{ field: 'acres', value: 10, type: 'gte' }])
    expect(snap().context.filters[0]).toMatchObject({ tableId: 'a', layerId: 'layer_a', operator: 'gte' })
  })

  it('sends string filters as field and value only, one filters parameter each', () => {
    const { actor, query } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    actor.send({
      type: 'filter.add',
      filter: { columnType: 'string', field: 'name', value: 'pine', operator: 'contains' },
    })
    actor.send({
      type: 'filter.add',
      filter: { columnType: 'number', field: 'acres', value: 5, operator: 'neq' },
    })
    expect(
      query()
        .getAll('filters')
        .map((f) => JSON.parse(f)),
    ).toEqual([
      { field: 'name', value: 'pine' },
      { field: 'acres', value: 5, type: 'neq' },
    ])
  })

  it("uses only each table's own filters", () => {
    const { actor, query } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    actor.send({
      type: 'filter.add',
      filter: { columnType: 'string', field: 'name', value: 'pine', operator: 'contains' },
    })
    actor.send({ type: 'table.open', tableId: 'b' })
    expect(query().getAll('filters')).toEqual([])
    actor.send({ type: 'table.open', tableId: 'a' })
    expect(query().getAll('filters')).toHaveLength(1)
  })

  it('removing a filter re-fetches the current table without it', () => {
    const { actor, snap, query, requests } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    actor.send({
      type: 'filter.add',
      filter: { columnType: 'string', field: 'name', value: 'pine', operator: 'contains' },
    })
    const filterId = snap().context.filters[0]?.filterId ?? ''
    actor.send({ type: 'filter.remove', filterId })
    expect(requests).toHaveLength(3)
    expect(snap().context.filters).toEqual([])
    expect(query().getAll('filters')).toEqual([])
  })

  it('page 2 requests offset 100; pages outside 1..page count are refused', () => {
    const { actor, snap, answer, query, requests } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    answer(rows(100), 150)
    actor.send({ type: 'page.set', page: 2 })
    expect(snap().context.tables.a?.page).toBe(2)
    expect(query().get('offset')).toBe('100')
    expect(query().get('limit')).toBe('100')
    actor.send({ type: 'page.set', page: 3 })
    actor.send({ type: 'page.set', page: 0 })
    expect(requests).toHaveLength(2)
    expect(snap().context.tables.a?.page).toBe(2)
  })

  it('keeps the rows when the answer has no records', () => {
    const { actor, snap, answer } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    answer(rows(3), 3)
    actor.send({
      type: 'filter.add',
      filter: { columnType: 'string', field: 'name', value: 'zzz', operator: 'contains' },
    })
    answer([], 0)
    expect(snap().context.tables.a?.rows).toEqual(rows(3))
    expect(snap().context.tables.a).toMatchObject({ lastAnswerEmpty: true, loading: false, total: 0 })
  })

  it('a failed request notifies and keeps the previous rows', () => {
    const { actor, snap, answer, last, failures } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    answer(rows(2), 2)
    actor.send({ type: 'page.set', page: 1 })
    actor.send({ type: 'records.failed', tableId: 'a', requestId: last().requestId, message: '503 down' })
    expect(failures).toEqual([{ tableName: 'Table A', message: '503 down' }])
    expect(snap().context.tables.a).toMatchObject({ rows: rows(2), loading: false })
  })

  it('ignores answers to superseded requests', () => {
    const { actor, snap, answer, requests } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    const first = requests[0]
    actor.send({
      type: 'filter.add',
      filter: { columnType: 'number', field: 'acres', value: 1, operator: 'gt' },
    })
    answer(rows(1, 50), 1)
    if (first) answer(rows(5), 5, first)
    expect(snap().context.tables.a?.rows).toEqual(rows(1, 50))
  })

  it('reset clears filters, the current table and tabs, and hides the panel', () => {
    const { actor, snap, answer } = start()
    actor.send({ type: 'table.open', tableId: 'a' })
    actor.send({ type: 'table.open', tableId: 'b' })
    actor.send({
      type: 'filter.add',
      filter: { columnType: 'string', field: 'name', value: 'x', operator: 'contains' },
    })
    answer(rows(2), 2)
    actor.send({ type: 'reset' })
    expect(snap().value).toBe('hidden')
    expect(snap().context).toMatchObject({ currentTableId: null, openOrder: [], filters: [] })
    expect(snap().context.tables.a).toMatchObject({ isOpen: false, rows: [], page: 1, total: null })
    expect(snap().context.tables.b?.isOpen).toBe(false)
  })

  it('ignores unknown tables and filters without a current table', () => {
    const { actor, snap, requests } = start()
    actor.send({ type: 'table.open', tableId: 'nope' })
    actor.send({
      type: 'filter.add',
      filter: { columnType: 'string', field: 'name', value: 'x', operator: 'contains' },
    })
    expect(snap().value).toBe('hidden')
    expect(snap().context.filters).toEqual([])
    expect(requests).toEqual([])
  })
})

describe('attributeTablesMachine with the real loader', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('GETs with JSON content type and the bearer token, and stores the records', async () => {
    vi.stubGlobal('document', { cookie: 'stytch_session=tok-123' })
    const fetchMock = vi.fn(
      async (_url: string, _init?: RequestInit) =>
        new Response(JSON.stringify({ records: rows(2), total: 2 }), { status: 200 }),
    )
    vi.stubGlobal('fetch', fetchMock)
    const actor = createActor(attributeTablesMachine, { input: { tables } }).start()
    actor.send({ type: 'table.open', tableId: 'a' })
    await vi.waitFor(() => expect(actor.getSnapshot().context.tables.a?.loading).toBe(false))
    actor.stop()
    const [url, init] = fetchMock.mock.calls.find(([u]) => String(u).startsWith('/api/data/')) ?? []
    expect(url).toBe('/api/data/a/records?limit=100&offset=0')
    const headers = new Headers(init?.headers)
    expect(headers.get('Content-Type')).toBe('application/json')
    expect(headers.get('Authorization')).toBe('Bearer tok-123')
    expect(actor.getSnapshot().context.tables.a?.rows).toEqual(rows(2))
  })

  it('turns an error status into a failure that keeps the rows', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: 'bad_request', message: 'bad filters' }), { status: 400 }),
      ),
    )
    const failures: string[] = []
    const machine = attributeTablesMachine.provide({
      actions: { notifyLoadFailed: (_, params) => void failures.push(params.message) },
    })
    const actor = createActor(machine, { input: { tables } }).start()
    actor.send({ type: 'table.open', tableId: 'a' })
    await vi.waitFor(() => expect(failures).toEqual(['400 bad filters']))
    expect(actor.getSnapshot().context.tables.a).toMatchObject({ loading: false, rows: [] })
    actor.stop()
  })
})

describe('attributeTablesMachine: open tables follow dataset versions', () => {
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it('refetches an open table’s current page with its filters when the once-a-minute GET /api/feeds shows its dataset’s version moved', async () => {
    vi.useFakeTimers()
    let versions: Record<string, number> = { a: 1, b: 7, c: 3 }
    const feedPolls: number[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/feeds') feedPolls.push(Date.now())
        return new Response(JSON.stringify({ feeds: [], versions }), { status: 200 })
      }),
    )
    const requests: LoadRecordsInput[] = []
    const machine = attributeTablesMachine.provide({
      actors: {
        loadRecords: fromPromise<void, LoadRecordsInput>(async ({ input }) => {
          requests.push(input)
        }),
      },
    })
    const actor = createActor(machine, { input: { tables, itemsPerPage: 100, startPage: 1 } }).start()
    const answer = (request: LoadRecordsInput | undefined, total: number) =>
      request &&
      actor.send({
        type: 'records.loaded',
        tableId: request.tableId,
        requestId: request.requestId,
        page: { records: rows(100), total },
      })
    actor.send({ type: 'table.open', tableId: 'b' })
    answer(requests.at(-1), 10)
    actor.send({ type: 'table.open', tableId: 'a' })
    answer(requests.at(-1), 250)
    actor.send({
      type: 'filter.add',
      filter: { columnType: 'number', field: 'acres', value: 5, operator: 'gte' },
    })
    answer(requests.at(-1), 250)
    actor.send({ type: 'page.set', page: 2 })
    answer(requests.at(-1), 250)
    await vi.advanceTimersByTimeAsync(0) // the first poll's answer: the baseline
    expect(feedPolls).toHaveLength(1)
    const before = requests.length

    await vi.advanceTimersByTimeAsync(60_000) // nothing changed: nothing refetched
    expect(feedPolls).toHaveLength(2)
    expect(requests).toHaveLength(before)

    versions = { a: 2, b: 7, c: 4 } // a feed run or an import changed a (c is not open)
    await vi.advanceTimersByTimeAsync(59_000)
    expect(requests).toHaveLength(before)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(feedPolls).toHaveLength(3)
    expect(requests).toHaveLength(before + 1)
    const refetch = requests.at(-1)
    expect(refetch?.tableId).toBe('a')
    const query = new URL(refetch?.url ?? '', 'http://x').searchParams
    expect(query.get('offset')).toBe('100') // still page 2
    expect(query.getAll('filters').map((f) => JSON.parse(f))).toEqual([
      { field: 'acres', value: 5, type: 'gte' },
    ])
    expect(actor.getSnapshot().context.tables.a).toMatchObject({ page: 2, loading: true })
    answer(refetch, 251)
    expect(actor.getSnapshot().context.tables.a).toMatchObject({ page: 2, total: 251, loading: false })

    // Panel hidden: the poll stops with it.
    actor.send({ type: 'table.close', tableId: 'a' })
    actor.send({ type: 'table.close', tableId: 'b' })
    await vi.advanceTimersByTimeAsync(180_000)
    expect(feedPolls).toHaveLength(3)
    actor.stop()
  })
})
