import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Fastify from 'fastify'
import { PNG } from 'pngjs'
import { afterAll, describe, expect, it } from 'vitest'
import { layersConfig, type LayersConfig } from '../../shared/config'
import { parseHexColor } from '../../shared/colorRamp'
import { defaultCatalog } from '../store/catalog'
import { GridStore } from '../store/gridStore'
import { openStore } from '../store/sqliteStore'
import { gridCatalog } from './gridCatalog'
import { gridRoutes } from './gridRoutes'

const dirs: string[] = []
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

/** The shipped layers config plus one grid, legend and raster source — YAML-only additions. */
const extended: LayersConfig = {
  ...layersConfig,
  legends: [
    ...layersConfig.legends,
    {
      id: 'soil_moisture',
      type: 'gradient',
      title: 'Soil Moisture',
      stops: [
        { value: 0, color: '#8c510a' },
        { value: 50, color: 'windSpeed.10' },
      ],
    },
  ],
  grids: [
    ...layersConfig.grids,
    { id: 'soil_moisture', title: 'Soil moisture', legend: 'soil_moisture', interpolation: 'bilinear' },
  ],
  sources: [
    ...layersConfig.sources,
    {
      id: 'soil_moisture_png',
      type: 'png',
      path: 'soil/moisture',
      grid: 'soil_moisture',
      minzoom: 3,
      maxzoom: 12,
      tileSize: 256,
    },
  ],
}

describe('a grid added in config', () => {
  it('is read with its legend, interpolation and hours', () => {
    const catalog = gridCatalog(extended)
    const source = catalog.rasterSources.find((s) => s.path === 'soil/moisture')!
    expect(source.grid).toMatchObject({ id: 'soil_moisture', interpolation: 'bilinear', hours: 1 })
    expect(source.grid.ramp.colorOf(50)).toEqual(parseHexColor('#66c2a5'))
  })

  it('is served as PNG tiles with no code change', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-gridroutes-'))
    dirs.push(dir)
    const store = openStore(dir, defaultCatalog())
    const app = Fastify()
    app.decorate('store', store)
    await app.register(gridRoutes, { demo: true, catalog: gridCatalog(extended) })
    const data = new Float32Array(4).fill(50)
    new GridStore(store.db).replaceGrid(
      'soil_moisture',
      [{ nx: 2, ny: 2, west: -107, east: -106, south: 34, north: 35, data }],
      'test',
    )
    // Tile 6/13/25 covers -106.875..-101.25, 31.95..36.6: its western part holds the grid.
    const res = await app.inject({ url: '/api/tiles/soil/moisture/png/6/13/25' })
    expect(res.statusCode).toBe(200)
    const png = PNG.sync.read(res.rawPayload)
    const colours = new Set<string>()
    for (let k = 0; k < png.data.length; k += 4) colours.add([...png.data.subarray(k, k + 4)].join(','))
    expect([...colours].sort()).toEqual(['0,0,0,0', parseHexColor('#66c2a5').join(',')].sort())
    await app.close()
    store.close()
  })
})
