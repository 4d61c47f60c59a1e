import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { cellLat, cellLon } from '../../../server/grids/gridRaster'
import { gridCatalog } from '../../../server/grids/gridCatalog'
import { appConfig, type ClassesLegend, type GradientLegend, type LegendClass } from '../../../shared/config'
import { DEFAULT_PLACES_CSV } from '../seedGrids'
import { epssHourScore, smoothstep } from './fireRisk'
import { generateNmFields } from './nmFields'
import { parsePlaces } from './population'

const classesOf = (legend: GradientLegend | ClassesLegend | undefined): readonly LegendClass[] =>
  legend?.type === 'classes' ? legend.classes : []

describe('smoothstep', () => {
  it('is 0 before the range, 1 after it, and rises between, for falling ranges too', () => {
    expect(smoothstep(10, 20, 5)).toBe(0)
    expect(smoothstep(10, 20, 25)).toBe(1)
    expect(smoothstep(10, 20, 15)).toBeCloseTo(0.5)
    expect(smoothstep(20, 5, 25)).toBe(0)
    expect(smoothstep(20, 5, 3)).toBe(1)
  })
})

describe('epssHourScore', () => {
  it('is high where strong gusts, dry air and heavy fuel meet', () => {
    expect(epssHourScore(65, 5, 0.9)).toBeGreaterThan(0.95)
  })

  it('stays near 0 when any one factor is missing', () => {
    expect(epssHourScore(30, 5, 0.9)).toBe(0) // light wind
    expect(epssHourScore(65, 35, 0.9)).toBe(0) // moist air
    expect(epssHourScore(65, 5, 0.3)).toBe(0) // little fuel (crops, barren, towns)
    expect(epssHourScore(56, 11, 0.62)).toBeLessThan(0.25) // middling on every count
  })
})

describe('the demo EPSS field', () => {
  // The demo's own fields (seed of the demo data, its places and vegetation classes), sampled over
  // the default demo view (zoom 11 at about 1100 × 450 px of map).
  const catalog = gridCatalog()
  const fields = generateNmFields({
    seed: 20250305,
    places: parsePlaces(fs.readFileSync(DEFAULT_PLACES_CSV, 'utf8')),
    fires: [],
    hours: 18,
    startHourLocal: appConfig.forecastWindow.startHourLocal,
    vegetationClasses: classesOf(catalog.grids.find((g) => g.id === 'vegetation')?.legend),
  })
  const [lon0 = 0, lat0 = 0] = appConfig.map.demo.center
  const inView: number[] = []
  const grid = fields.epss
  for (let j = 0; j < grid.ny; j++)
    for (let i = 0; i < grid.nx; i++) {
      const v = grid.data[j * grid.nx + i]!
      if (Number.isNaN(v)) continue
      if (Math.abs(cellLon(grid, i) - lon0) > 0.4 || Math.abs(cellLat(grid, j) - lat0) > 0.13) continue
      inView.push(v)
    }
  const share = (test: (v: number) => boolean) => inView.filter(test).length / inView.length

  it('is high only in corridors of the default demo view, not over all of it', () => {
    expect(inView.length).toBeGreaterThan(100)
    expect(share((v) => v >= 0.5)).toBeGreaterThan(0.02) // the corridors exist
    expect(share((v) => v >= 0.5)).toBeLessThan(0.3)
    expect(share((v) => v < 0.25)).toBeGreaterThan(0.5) // most of the view is see-through
  })
}, 60_000)
