import {
  expression,
  latest,
  validateStyleMin,
  type StyleSpecification,
} from '@maplibre/maplibre-gl-style-spec'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { layersConfig, mapLayerById } from '../../src/shared/config'
import { demoNow } from '../../src/features/map/render/mapClock'
import { compilePaintStyle } from '../../src/features/map/style/compilePaintStyle'
import { gridCatalog } from '../../src/server/grids/gridCatalog'
import { AUTH, seededApp, type TestApp } from './testApp'

// TileJSON per source, the OGC API – Tiles tileset list and the MapLibre styles compiled from the
// YAML paint rules: checked against the tile routes, the style spec and the web map's own colours.
let t: TestApp

beforeAll(async () => {
  t = await seededApp({ buildings: 600 })
}, 120_000)

afterAll(async () => {
  await t.close()
})

async function get(url: string, headers: Record<string, string> = AUTH) {
  const res = await t.app.inject({ url, headers })
  return {
    status: res.statusCode,
    type: String(res.headers['content-type'] ?? ''),
    json: () => res.json() as Record<string, unknown>,
  }
}

interface TileJson {
  tilejson: string
  tiles: string[]
  minzoom: number
  maxzoom: number
  bounds: number[]
  vector_layers?: { id: string; fields: Record<string, string> }[]
}

describe('TileJSON 3.0', () => {
  it('describes every vector source: tiles URL, zooms, bounds, the layer and its fields', async () => {
    for (const source of t.store.catalog.sources) {
      const res = await get(`/api/tiles/${source.path}/tilejson.json`)
      expect(res.status, source.path).toBe(200)
      const doc = res.json() as unknown as TileJson
      expect(doc.tilejson).toBe('3.0.0')
      expect(doc.tiles[0]).toMatch(
        new RegExp(`^http://[^/]+/api/tiles/${source.path}/mvt/\\{z\\}/\\{x\\}/\\{y\\}\\.pbf$`),
      )
      expect([doc.minzoom, doc.maxzoom]).toEqual([source.minzoom, source.maxzoom])
      const bbox = (await t.store.info(source.dataset)).bbox
      if (bbox) doc.bounds.forEach((v, i) => expect(v).toBeCloseTo(bbox[i] as number, 5))
      const dataset = t.store.dataset(source.dataset)
      expect(doc.vector_layers?.[0]?.id).toBe(source.dataset)
      expect(Object.keys(doc.vector_layers?.[0]?.fields ?? {})).toEqual(dataset?.fields.map((f) => f.name))
      // The tiles URL answers (204 for an empty tile is fine).
      const tile = await t.app.inject({
        url: new URL(doc.tiles[0]?.replace('{z}/{x}/{y}', `${source.minzoom}/6/12`) ?? '').pathname,
        headers: AUTH,
      })
      expect([200, 204], source.path).toContain(tile.statusCode)
    }
  })

  it('describes every raster source; a path with both kinds serves the vector one plainly, each under mvt/ and png/', async () => {
    for (const source of gridCatalog().rasterSources) {
      const res = await get(`/api/tiles/${source.path}/png/tilejson.json`)
      expect(res.status, source.path).toBe(200)
      const doc = res.json() as unknown as TileJson
      expect(doc.tiles[0]).toContain(`/api/tiles/${source.path}/png/{z}/{x}/{y}`)
      expect(doc.vector_layers).toBeUndefined()
      expect([doc.minzoom, doc.maxzoom]).toEqual([source.minzoom, source.maxzoom])
    }
    const plain = (
      await get('/api/tiles/enhanced_powerline_safety_settings/tilejson.json')
    ).json() as unknown as TileJson
    expect(plain.tiles[0]).toContain('/mvt/')
    const slope = (await get('/api/tiles/slope/tilejson.json')).json() as unknown as TileJson
    expect(slope.tiles[0]).toContain('/api/tiles/slope/png/')
  })

  it('needs a session', async () => {
    expect((await get('/api/tiles/buildings/tilejson.json', {})).status).toBe(401)
  })
})

describe('OGC API – Tiles tileset list', () => {
  it('lists every vector and raster source with a templated tile link and its TileJSON', async () => {
    const body = (await get('/ogc/tiles')).json() as {
      tilesets: {
        id: string
        dataType: string
        links: { rel: string; href: string; templated?: boolean }[]
      }[]
    }
    const ids = body.tilesets.map((s) => s.id)
    expect(ids).toEqual([
      ...t.store.catalog.sources.map((s) => s.id),
      ...gridCatalog().rasterSources.map((s) => s.id),
    ])
    const buildings = body.tilesets.find((s) => s.id === 'buildings_mvt')
    expect(buildings?.dataType).toBe('vector')
    const item = buildings?.links.find((l) => l.rel === 'item')
    expect(item?.templated).toBe(true)
    expect(item?.href).toMatch(/\/api\/tiles\/buildings\/mvt\/\{tileMatrix\}\/\{tileCol\}\/\{tileRow\}\.pbf$/)
    expect(buildings?.links.find((l) => l.rel === 'describedby')?.href).toMatch(
      /\/api\/tiles\/buildings\/tilejson\.json$/,
    )
    const slope = body.tilesets.find((s) => s.id === 'slope_png')
    expect(slope?.dataType).toBe('map')
  })

  it('describes one tileset; 404 for an unknown one', async () => {
    const res = await get('/ogc/tiles/buildings_mvt')
    expect(res.status).toBe(200)
    expect(res.json()).toMatchObject({ id: 'buildings_mvt', minTileMatrix: '5', maxTileMatrix: '18' })
    expect((await get('/ogc/tiles/nope')).status).toBe(404)
  })
})

/** rgba of a '#rrggbb[aa]' colour, alpha multiplied by `opacity`. */
function rgba(hex: string, opacity: number): number[] {
  const n = (i: number) => parseInt(hex.slice(i, i + 2), 16)
  const a = hex.length === 9 ? n(7) / 255 : 1
  return [n(1), n(3), n(5), a * opacity]
}

describe('MapLibre styles from the YAML paint rules', () => {
  it('lists a style per vector map layer and one of all of them, each valid per the style spec', async () => {
    const list = (await get('/ogc/styles')).json() as { styles: { id: string }[] }
    const vectorLayers = layersConfig.mapLayers.filter(
      (m) =>
        ['line', 'fill', 'circle', 'icon'].includes(m.paint.type) &&
        t.store.catalog.sources.some((s) => s.id === m.source),
    )
    expect(list.styles.map((s) => s.id)).toEqual(['emberline', ...vectorLayers.map((m) => m.id)])
    for (const { id } of list.styles) {
      const res = await get(`/ogc/styles/${id}`)
      expect(res.status, id).toBe(200)
      expect(res.type).toContain('application/vnd.mapbox.style+json')
      const errors = validateStyleMin(res.json() as unknown as StyleSpecification)
      expect(
        errors.map((e) => e.message),
        id,
      ).toEqual([])
    }
    expect((await get('/ogc/styles/nope')).status).toBe(404)
    // Layers are not cut at the source's maxzoom (MapLibre overzooms, as the web map draws on).
    const all = (await get('/ogc/styles/emberline')).json() as unknown as StyleSpecification
    for (const layer of all.layers) expect((layer as { maxzoom?: number }).maxzoom, layer.id).toBeUndefined()
    const buildings = all.sources.buildings_mvt as { maxzoom?: number; tiles?: string[] }
    expect(buildings.maxzoom).toBe(18)
    expect(buildings.tiles?.[0]).toMatch(/\/api\/tiles\/buildings\/mvt\/\{z\}\/\{x\}\/\{y\}\.pbf$/)
  })

  it('colours each stored feature as the web map does (rules, scales, theme colours, opacity)', async () => {
    const now = demoNow()
    let compared = 0
    const style = (await get('/ogc/styles/emberline')).json() as unknown as StyleSpecification
    for (const layer of style.layers) {
      if (layer.type !== 'line' && layer.type !== 'fill' && layer.type !== 'circle') continue
      const web = compilePaintStyle(mapLayerById(layer.id))
      if (web.type === 'icon') {
        expect(layer.type).toBe('circle')
      }
      const paint = layer.paint as Record<string, unknown>
      const key = `${layer.type}-color`
      const spec = (latest as unknown as Record<string, Record<string, unknown>>)[`paint_${layer.type}`]?.[
        key
      ]
      const compiled = expression.createExpression(paint[key], key, spec as never)
      expect(compiled.result, layer.id).toBe('success')
      if (compiled.result !== 'success') continue
      const opacity = Number(paint[`${layer.type}-opacity`] ?? 1)
      const sourceLayer = (layer as { 'source-layer': string })['source-layer']
      const features = (await t.store.allFeatures(sourceLayer)).slice(0, 200)
      for (const f of features) {
        const color = compiled.value.evaluate({ zoom: 10 }, {
          type: 'Point' as never,
          properties: f.properties,
        } as never) as {
          r: number
          g: number
          b: number
          a: number
        }
        const want =
          web.type === 'icon'
            ? rgba(web.iconOf(f.properties).color, 1)
            : rgba(web.colorOf(f.properties, now), web.opacity)
        // MapLibre colours are premultiplied by alpha.
        const got =
          color.a === 0
            ? [0, 0, 0, 0]
            : [color.r / color.a, color.g / color.a, color.b / color.a].map((v) => Math.round(v * 255))
        if (want[3] === 0) expect(color.a * opacity, layer.id).toBe(0)
        else {
          expect(got, `${layer.id} ${JSON.stringify(f.properties)}`).toEqual(want.slice(0, 3))
          expect(color.a * opacity).toBeCloseTo(want[3] as number, 2)
        }
        compared++
      }
    }
    expect(compared).toBeGreaterThan(500)
  })
})
