import { describe, expect, it } from 'vitest'
import type { PspsRollupSettings } from '../../shared/config'
import { encodeGeometry } from '../store/geometryCodec'
import { buildPspsEvent, parseSort, pspsCsv, sortRows } from './pspsEvent'

const settings: PspsRollupSettings = {
  dataset: 'circuits',
  key: 'name',
  windowStart: 'start',
  windowEnd: 'end',
  gust: 'gust',
  threshold: 'limit',
  columns: [
    { field: 'name', label: 'Circuit' },
    { field: 'customers', label: 'Customers', total: 'sum' },
    { field: 'svi', label: 'SVI, index', formatter: 'decimal1', total: 'sum' },
  ],
}

const feature = (id: number, props: Record<string, string | number | null>) => ({
  id,
  geom: encodeGeometry(
    [
      [
        [
          [-106, 35],
          [-105.5, 35.25],
        ],
      ],
    ],
    'line',
  ).blob,
  properties: props,
})

const features = [
  feature(1, {
    name: 'B-2',
    customers: 10,
    svi: 0.1,
    gust: 50,
    limit: 45,
    start: '2025-03-05T18:00:00Z',
    end: '2025-03-06T06:00:00Z',
  }),
  feature(2, {
    name: 'A-10',
    customers: null,
    svi: 0.2,
    gust: 40,
    limit: 45,
    start: '2025-03-05T16:00:00Z',
    end: '2025-03-06T04:00:00Z',
  }),
  feature(3, {
    name: 'A-9',
    customers: 30,
    svi: 0.4,
    gust: null,
    limit: 45,
    start: 'not a date',
    end: '2025-03-06T09:00:00Z',
  }),
]

describe('buildPspsEvent', () => {
  const event = buildPspsEvent(settings, features)

  it('spans the earliest start and the latest end (ignoring bad dates)', () => {
    expect(event.window).toEqual({ start: '2025-03-05T16:00:00Z', end: '2025-03-06T09:00:00Z' })
  })

  it('rows carry the columns, key, bbox and the gust check', () => {
    expect(event.rows[0]).toEqual({
      id: 1,
      key: 'B-2',
      bbox: [-106, 35, -105.5, 35.25],
      gust: 50,
      threshold: 45,
      gustExceedsThreshold: true,
      values: { name: 'B-2', customers: 10, svi: 0.1 },
    })
    expect(event.rows.map((r) => r.gustExceedsThreshold)).toEqual([true, false, false])
  })

  it('totals the sum columns without binary noise; missing values count 0', () => {
    expect(event.totals).toEqual({ customers: 40, svi: 0.7 })
  })
})

describe('sorting and CSV', () => {
  const event = buildPspsEvent(settings, features)

  it('parses field / -field against the columns only', () => {
    expect(parseSort('-customers', event.columns)).toEqual({ field: 'customers', descending: true })
    expect(parseSort('gust', event.columns)).toBeNull()
  })

  it('sorts numbers numerically and names naturally, missing values last both ways', () => {
    const by = (s: string) => sortRows(event.rows, parseSort(s, event.columns)!).map((r) => r.id)
    expect(by('customers')).toEqual([1, 3, 2])
    expect(by('-customers')).toEqual([3, 1, 2])
    expect(by('name')).toEqual([3, 2, 1])
  })

  it('writes labels, the rows and a Total line (quoted where needed)', () => {
    expect(pspsCsv(event)).toBe(
      ['Circuit,Customers,"SVI, index"', 'B-2,10,0.1', 'A-10,,0.2', 'A-9,30,0.4', 'Total,40,0.7', ''].join(
        '\r\n',
      ),
    )
  })
})
