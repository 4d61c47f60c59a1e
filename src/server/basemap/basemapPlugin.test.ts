import { VectorTile } from '@mapbox/vector-tile'
import Fastify from 'fastify'
import Pbf from 'pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { basemapPlugin } from './basemapPlugin'

const app = Fastify()
beforeAll(async () => {
  await app.register(basemapPlugin)
  await app.ready()
})
afterAll(() => app.close())

// Tile containing Albuquerque at z8: x = 52, y = 101.
describe('offline basemap tiles', () => {
  it('serves state and county outlines and New Mexico places without a session', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/basemap/8/52/101' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toContain('application/vnd.mapbox-vector-tile')
    const tile = new VectorTile(new Pbf(res.rawPayload))
    expect(Object.keys(tile.layers).sort()).toEqual(['counties', 'county_labels', 'places', 'states'])
    const places = tile.layers.places
    const names = Array.from({ length: places?.length ?? 0 }, (_, i) => places?.feature(i).properties.name)
    expect(names).toContain('Albuquerque')
    const states = tile.layers.states
    expect(
      Array.from({ length: states?.length ?? 0 }, (_, i) => states?.feature(i).properties.name),
    ).toContain('New Mexico')
  })

  it('answers 204 for an empty tile and 400 for bad coordinates', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/basemap/8/0/0' })).statusCode).toBe(204)
    const bad = await app.inject({ method: 'GET', url: '/api/basemap/3/9/1' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ error: 'bad_request', parameter: 'x' })
    expect((await app.inject({ method: 'GET', url: '/api/basemap/a/1/1' })).statusCode).toBe(400)
  })
})
