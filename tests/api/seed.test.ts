import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { layersConfig } from '../../src/shared/config'
import { generateDemo } from '../../src/demo/generateDemo'
import { newMexico } from '../../src/demo/geography'
import { seedDemo } from '../../src/demo/seedDemo'
import { defaultCatalog } from '../../src/server/store/catalog'
import { tableNames } from '../../src/server/store/datasetTables'
import { openStore, type SqliteStore } from '../../src/server/store/sqliteStore'
import { tempDir } from './testApp'

function demoHash(buildings: number): string {
  const demo = generateDemo({ buildings })
  const h = createHash('sha256')
  for (const [id, produce] of Object.entries(demo.datasets))
    for (const f of produce()) h.update(id + JSON.stringify(f))
  h.update(JSON.stringify(demo.series))
  return h.digest('hex')
}

function storeHash(store: SqliteStore): string {
  const h = createHash('sha256')
  for (const d of store.catalog.datasets) {
    for (const row of store.db
      .prepare(`SELECT * FROM ${tableNames(d.id).features} ORDER BY id`)
      .raw()
      .iterate()) {
      h.update(JSON.stringify(row, (_, v: unknown) => (Buffer.isBuffer(v) ? v.toString('base64') : v)))
    }
  }
  h.update(JSON.stringify(store.series('public_safety_power_shutoff_risk_score')))
  return h.digest('hex')
}

describe('demo seed', () => {
  it('is byte-identical on two runs (generator output and stored rows)', async () => {
    expect(demoHash(1500)).toBe(demoHash(1500))
    const hashes: string[] = []
    for (const dir of [tempDir(), tempDir()]) {
      const store = openStore(dir, defaultCatalog())
      await seedDemo(store, { buildings: 1500, steps: [] })
      hashes.push(storeHash(store))
      store.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
    expect(hashes[0]).toBe(hashes[1])
  }, 120_000)

  it('fills every dataset with every field, inside New Mexico', () => {
    const demo = generateDemo({ buildings: 500 })
    const nm = newMexico()
    for (const d of layersConfig.datasets) {
      const produce = demo.datasets[d.id]
      expect(produce, d.id).toBeDefined()
      const features = [...(produce?.() ?? [])]
      expect(features.length, d.id).toBeGreaterThan(0)
      for (const f of features.slice(0, 50)) {
        for (const field of d.fields)
          expect(f.properties?.[field.name], `${d.id}.${field.name}`).not.toBeUndefined()
      }
    }
    const infra = [...(demo.datasets.critical_infrastructure?.() ?? [])]
    expect(new Set(infra.map((f) => f.properties?.type)).size).toBe(8)
    for (const f of [...(demo.datasets.buildings?.() ?? [])]) {
      const [lon, lat] = (f.geometry as { coordinates: number[][][] }).coordinates[0]?.[0] as [number, number]
      expect(nm.contains(lon, lat)).toBe(true)
    }
    const active = [...(demo.datasets.fire_extent_active?.() ?? [])]
    expect(active.some((f) => f.properties?.percent_contained === 100)).toBe(true)
    const forecast = [...(demo.datasets.fire_extent_forecast?.() ?? [])]
    expect(new Set(forecast.map((f) => f.properties?.percentile))).toEqual(new Set([50, 75, 90]))
  })

  it('hotspots fall in every age bucket relative to the reference date', () => {
    const demo = generateDemo({ buildings: 0 })
    const ages = [...(demo.datasets.thermal_hot_spots?.() ?? [])].map(
      (f) => (demo.context.now - Date.parse(String(f.properties?.acquired))) / 3_600_000,
    )
    expect(ages.some((a) => a < 6)).toBe(true)
    expect(ages.some((a) => a >= 6 && a < 12)).toBe(true)
    expect(ages.some((a) => a >= 12 && a < 24)).toBe(true)
    expect(ages.some((a) => a >= 24)).toBe(true)
  })

  it('a seed interrupted half-way leaves the previous data intact', async () => {
    const dir = tempDir()
    const store = openStore(dir, defaultCatalog())
    try {
      await seedDemo(store, { buildings: 300, steps: [] })
      const before = storeHash(store)
      const failing = {
        name: 'failing step',
        run: async () => {
          throw new Error('interrupted')
        },
      }
      await expect(seedDemo(store, { buildings: 900, seed: 7, steps: [failing] })).rejects.toThrow(
        'interrupted',
      )
      expect(storeHash(store)).toBe(before)
      expect(store.info('buildings').count).toBe(300)
    } finally {
      store.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
