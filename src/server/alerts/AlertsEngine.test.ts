import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AlertsSettings } from '../../shared/config'
import type { Catalog } from '../store/catalog'
import { openStore, type SqliteStore } from '../store/sqliteStore'
import { at } from './alertFixtures'
import { AlertsEngine } from './AlertsEngine'

const catalog: Catalog = {
  datasets: [
    {
      id: 'hazards',
      geometry: 'point',
      key: 'code',
      fields: [
        { name: 'code', type: 'string' },
        { name: 'seen', type: 'date' },
      ],
    },
    { id: 'assets', geometry: 'line', fields: [{ name: 'name', type: 'string' }] },
  ],
  tables: [],
  sources: [],
}

const settings: AlertsSettings = {
  severities: [
    { id: 'high', label: 'High', color: '#ff0000' },
    { id: 'low', label: 'Low', color: '#ffff00' },
  ],
  rules: [
    {
      id: 'near',
      title: 'Near',
      severity: 'low',
      distanceMiles: 3,
      hazard: { dataset: 'hazards', label: 'code', time: 'seen' },
      asset: { dataset: 'assets', label: 'name' },
    },
    {
      id: 'touching',
      title: 'Touching',
      severity: 'high',
      distanceMiles: 0.5,
      hazard: { dataset: 'hazards', label: 'code', time: 'seen' },
      asset: { dataset: 'assets', label: 'name' },
    },
  ],
}

const hazard = (code: string, north: number, seen: string) => ({
  geometry: { type: 'Point' as const, coordinates: at(0, north) },
  properties: { code, seen },
})

let dir: string
let store: SqliteStore

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-alerts-engine-'))
  store = openStore(dir, catalog)
  store.replaceDataset('assets', [
    { geometry: { type: 'LineString', coordinates: [at(-5, 0), at(5, 0)] }, properties: { name: 'Line A' } },
  ])
  store.replaceDataset('hazards', [
    hazard('far', 2, '2025-03-05T18:00:00Z'),
    hazard('close', 0.2, '2025-03-05T10:00:00Z'),
    hazard('closer', 0.1, '2025-03-05T12:00:00Z'),
    hazard('away', 9, '2025-03-05T18:00:00Z'),
  ])
})

afterEach(() => {
  store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('AlertsEngine', () => {
  it('sorts by severity (config order) then newest first, ids from the dataset key', async () => {
    const engine = new AlertsEngine(store, settings, () => Date.parse('2025-03-05T19:00:00Z'))
    const { alerts, counts } = await engine.evaluate()
    expect(alerts.map((a) => a.id)).toEqual([
      'touching:closer',
      'touching:close',
      'near:far',
      'near:closer',
      'near:close',
    ])
    expect([...counts]).toEqual([
      ['near', 3],
      ['touching', 2],
    ])
  })

  it('recomputes only when a dataset version changes', async () => {
    const engine = new AlertsEngine(store, settings, () => Date.parse('2025-03-05T19:00:00Z'))
    const read = vi.spyOn(store, 'allFeatures')
    const first = await engine.evaluate()
    expect(read).toHaveBeenCalledTimes(2)
    expect((await engine.evaluate()).alerts).toEqual(first.alerts)
    expect(read).toHaveBeenCalledTimes(2)

    store.replaceDataset('hazards', [hazard('new', 1, '2025-03-05T18:00:00Z')])
    const after = await engine.evaluate()
    expect(read).toHaveBeenCalledTimes(3)
    expect(after.alerts.map((a) => a.id)).toEqual(['near:new'])
  })

  it('answers the hazard and assets of an alert as GeoJSON', async () => {
    const engine = new AlertsEngine(store, settings, () => Date.parse('2025-03-05T19:00:00Z'))
    const alert = (await engine.evaluate()).alerts.find((a) => a.id === 'near:far')
    expect(alert).toBeDefined()
    const fc = engine.geometry(alert!)
    expect(fc.features.map((f) => [f.geometry.type, f.properties?.role, f.properties?.label])).toEqual([
      ['Point', 'hazard', 'far'],
      ['LineString', 'asset', 'Line A'],
    ])
    expect(fc.bbox).toEqual(alert?.bbox)
  })
})
