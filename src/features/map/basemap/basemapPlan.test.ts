import { describe, expect, it } from 'vitest'
import { appConfig } from '../../../shared/config'
import { BASEMAP_TILE_URL, basemapPlan } from './basemapPlan'

describe('basemapPlan', () => {
  it('draws the offline basemap by default, with its names above the data', () => {
    expect(appConfig.map.basemap.type).toBe('offline')
    const plan = basemapPlan(appConfig.map.basemap)
    expect(plan.base).toMatchObject({ kind: 'offline', url: BASEMAP_TILE_URL })
    expect(plan.base.attribution).not.toBe('')
    expect(plan.overlay).toEqual({ kind: 'offline', url: BASEMAP_TILE_URL })
  })

  it('an xyz basemap lies beneath the data with its attribution; the offline names stay above unless turned off', () => {
    const url = 'https://tiles.example.org/{z}/{y}/{x}.png'
    const plan = basemapPlan({ type: 'xyz', url, attribution: 'Example', maxZoom: 16 })
    expect(plan.base).toEqual({
      kind: 'xyz',
      url,
      attribution: 'Example',
      maxZoom: 16,
      subdomains: undefined,
    })
    expect(plan.overlay).toEqual({ kind: 'offline', url: BASEMAP_TILE_URL })
    expect(basemapPlan({ type: 'xyz', url, attribution: 'Example', placeLabels: false }).overlay).toBeNull()
  })

  it('a PMTiles basemap draws its own names above the data', () => {
    const url = 'https://tiles.example.org/nm.pmtiles'
    const plan = basemapPlan({ type: 'pmtiles', url, attribution: '© OpenStreetMap contributors' })
    expect(plan.base).toMatchObject({ kind: 'pmtiles', url, attribution: '© OpenStreetMap contributors' })
    expect(plan.overlay).toEqual({ kind: 'pmtiles', url, maxZoom: undefined })
  })
})
