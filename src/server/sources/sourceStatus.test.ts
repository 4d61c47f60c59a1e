import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { SourceHealth } from './sourceHealth'
import { isConfigured, sourceStatusRoute } from './sourceStatus'

describe('isConfigured', () => {
  it('is true without placeholders, and while every ${NAME} of url or file is set', () => {
    expect(isConfigured({ id: 'a', type: 'xyz', url: 'https://t.example/{z}/{x}/{y}.png' }, {})).toBe(true)
    expect(isConfigured({ id: 'b', type: 'wms', url: '${WMS_URL}' }, { WMS_URL: 'http://w' })).toBe(true)
    expect(isConfigured({ id: 'c', type: 'pmtiles', file: '${ARCHIVE}.pmtiles' }, { ARCHIVE: 'x' })).toBe(
      true,
    )
  })

  it('is false when a placeholder is unset or empty', () => {
    expect(isConfigured({ id: 'b', type: 'wms', url: '${WMS_URL}' }, {})).toBe(false)
    expect(isConfigured({ id: 'b', type: 'wms', url: '${WMS_URL}' }, { WMS_URL: '' })).toBe(false)
    const twice = { id: 'd', type: 'xyz', url: 'https://${HOST}/t/${KEY}/{z}/{x}/{y}' }
    expect(isConfigured(twice, { HOST: 'h' })).toBe(false)
    expect(isConfigured(twice, { HOST: 'h', KEY: 'k' })).toBe(true)
  })
})

describe('GET /api/sources/status', () => {
  it('says which sources are configured, and gives no host for an unset one', async () => {
    const app = Fastify()
    const sources = [
      { id: 'on', type: 'wms', url: '${ON_URL}' },
      { id: 'off', type: 'arcgis-featureserver', url: '${OFF_URL}' },
      { id: 'plain', type: 'xyz', url: 'https://tiles.example.org/{z}/{x}/{y}.png' },
    ]
    sourceStatusRoute(app, new SourceHealth(), sources, { ON_URL: 'http://127.0.0.1:9/wms' })
    const res = await app.inject({ url: '/api/sources/status' })
    expect(res.statusCode).toBe(200)
    const list = (res.json() as { sources: { id: string; configured: boolean; host: string | null }[] })
      .sources
    expect(list.map(({ id, configured, host }) => ({ id, configured, host }))).toEqual([
      { id: 'on', configured: true, host: '127.0.0.1:9' },
      { id: 'off', configured: false, host: null },
      { id: 'plain', configured: true, host: 'tiles.example.org' },
    ])
    await app.close()
  })
})
