import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AppStore } from '../AppStore'
import { catalogFrom, type Catalog } from '../catalog'
import { openStore } from '../sqliteStore'
import type { FeatureInput } from '../Store'
import { openPgStore } from './pgStore'
import { testPg } from './testing/pgTestDatabase'

/**
 * What the store tests run on: the same catalog and features in either store (SQLite in a
 * temporary directory, PostgreSQL in a fresh test database), so one suite asserts both.
 */
export const storeKinds = ['sqlite', 'postgres'] as const
export type StoreKind = (typeof storeKinds)[number]

export interface OpenedStore {
  store: AppStore
  /** The PostgreSQL URL (postgres only): a second server opens it. */
  url: string | null
  close(): Promise<void>
}

export const fixtureCatalog: Catalog = catalogFrom(
  {
    datasets: [
      {
        id: 'bldg',
        geometry: 'polygon',
        fields: [
          { name: 'name', type: 'string' },
          { name: 'height', type: 'number' },
          { name: 'built', type: 'date' },
        ],
      },
      {
        id: 'wires',
        geometry: 'line',
        fields: [
          { name: 'kv', type: 'number' },
          { name: 'owner', type: 'string' },
        ],
      },
      {
        id: 'sites',
        geometry: 'point',
        fields: [
          { name: 'kind', type: 'string' },
          { name: 'score', type: 'number' },
        ],
      },
    ],
    sources: [
      {
        id: 'bldg_mvt',
        type: 'mvt',
        path: '/t/bldg/{z}/{x}/{y}',
        dataset: 'bldg',
        minzoom: 4,
        maxzoom: 16,
        generalize: { aggregateMaxZoom: 9, thinMaxZoom: 12, minSizePx: 2, thinFeatures: 200 },
      },
      {
        id: 'wires_mvt',
        type: 'mvt',
        path: '/t/wires/{z}/{x}/{y}',
        dataset: 'wires',
        minzoom: 0,
        maxzoom: 16,
      },
      {
        id: 'sites_mvt',
        type: 'mvt',
        path: '/t/sites/{z}/{x}/{y}',
        dataset: 'sites',
        minzoom: 0,
        maxzoom: 16,
      },
    ],
  },
  {
    tables: [
      {
        id: 'bldg_t',
        dataset: 'bldg',
        columns: [
          { key: 'name', type: 'string', filterable: true },
          { key: 'height', type: 'number', filterable: true },
        ],
      },
      {
        id: 'sites_t',
        dataset: 'sites',
        columns: [
          { key: 'kind', type: 'string', filterable: true },
          { key: 'score', type: 'number', filterable: true },
        ],
      },
    ],
  },
)

/** mulberry32: the same pseudo-random features in every run and store. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Names that test case folding, COPY escaping (backslash, tab, newline) and missing values. */
const NAMES = [
  'Alder',
  'alder',
  'BIRCH',
  'Cedar Ridge',
  'Ñandú',
  'back\\slash',
  'tab\there',
  'two\nlines',
  '',
  null,
]

function ring(lon: number, lat: number, w: number, h: number): number[][] {
  return [
    [lon, lat],
    [lon + w, lat],
    [lon + w, lat + h],
    [lon, lat + h],
    [lon, lat],
  ]
}

/** `n` buildings around (-106, 35.6): squares, some with a hole, some multipolygons. */
export function buildings(n: number, seed = 7): FeatureInput[] {
  const r = random(seed)
  return Array.from({ length: n }, (_, i): FeatureInput => {
    const lon = -106.2 + r() * 0.4
    const lat = 35.4 + r() * 0.4
    const w = 0.0002 + r() * 0.003
    const kind = i % 7
    const geometry: FeatureInput['geometry'] =
      kind === 0
        ? {
            type: 'MultiPolygon',
            coordinates: [[ring(lon, lat, w, w)], [ring(lon + 2 * w, lat, w / 2, w / 2)]],
          }
        : kind === 1
          ? {
              type: 'Polygon',
              coordinates: [ring(lon, lat, w, w), ring(lon + w / 4, lat + w / 4, w / 4, w / 4)],
            }
          : { type: 'Polygon', coordinates: [ring(lon, lat, w, w * 0.7)] }
    return {
      geometry,
      properties: {
        name: NAMES[i % NAMES.length],
        height: i % 11 === 0 ? null : Math.round((r() * 60 - 5) * 100) / 100,
        built: i % 5 === 0 ? null : `19${String(50 + (i % 50)).padStart(2, '0')}-0${1 + (i % 9)}-15`,
      },
      line: i + 1,
    }
  })
}

/** `n` lines (some multilines). */
export function wires(n: number, seed = 11): FeatureInput[] {
  const r = random(seed)
  return Array.from({ length: n }, (_, i): FeatureInput => {
    const a = [-106.2 + r() * 0.4, 35.4 + r() * 0.4]
    const b = [(a[0] as number) + r() * 0.05, (a[1] as number) + r() * 0.05]
    const c = [(b[0] as number) + r() * 0.05, (b[1] as number) - r() * 0.05]
    return {
      geometry:
        i % 4 === 0
          ? {
              type: 'MultiLineString',
              coordinates: [
                [a, b],
                [b, c],
              ],
            }
          : { type: 'LineString', coordinates: [a, b, c] },
      properties: { kv: [115, 230, 345][i % 3], owner: i % 3 === 0 ? 'PNM' : 'Kit Carson' },
    }
  })
}

/** `n` points (some multipoints) and one record kept without geometry. */
export function sites(n: number, seed = 13): FeatureInput[] {
  const r = random(seed)
  const out = Array.from({ length: n }, (_, i): FeatureInput => {
    const p = [-106.2 + r() * 0.4, 35.4 + r() * 0.4]
    return {
      geometry:
        i % 9 === 0
          ? { type: 'MultiPoint', coordinates: [p, [(p[0] as number) + 0.01, p[1] as number]] }
          : { type: 'Point', coordinates: p },
      properties: { kind: ['school', 'hospital', 'Water'][i % 3], score: i % 6 === 0 ? null : i / 3 },
    }
  })
  out.splice(3, 0, { geometry: null, properties: { kind: 'zone only', score: 1 }, recordOnly: true })
  return out
}

/** Opens an empty store of `kind` on the fixture catalog (or `catalog`). */
export async function openTestStore(
  kind: StoreKind,
  catalog: Catalog = fixtureCatalog,
): Promise<OpenedStore> {
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-storetest-'))
    const store = openStore(dir, catalog)
    return {
      store,
      url: null,
      async close() {
        store.close()
        fs.rmSync(dir, { recursive: true, force: true })
      },
    }
  }
  const t = await testPg()
  const store = await openPgStore(t.url, catalog, { max: 4 })
  return {
    store,
    url: t.url,
    async close() {
      await store.close()
      await t.drop()
    },
  }
}
