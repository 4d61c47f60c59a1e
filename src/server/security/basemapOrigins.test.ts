import { describe, expect, it } from 'vitest'
import { basemapOrigins } from './basemapOrigins'

describe('basemapOrigins', () => {
  it('adds nothing for the offline basemap or a basemap served by this server', () => {
    expect(basemapOrigins({ type: 'offline' })).toEqual({ img: [], connect: [] })
    expect(basemapOrigins({ type: 'pmtiles', url: '/basemap/nm.pmtiles', attribution: 'x' })).toEqual({
      img: [],
      connect: [],
    })
  })

  it('lets an XYZ raster service draw images, one origin per subdomain', () => {
    expect(
      basemapOrigins({ type: 'xyz', url: 'https://tiles.example.org/{z}/{x}/{y}.png', attribution: 'x' }),
    ).toEqual({ img: ['https://tiles.example.org'], connect: [] })
    expect(
      basemapOrigins({
        type: 'xyz',
        url: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
        attribution: 'x',
        subdomains: ['a', 'b'],
      }).img,
    ).toEqual(['https://a.tiles.example.org', 'https://b.tiles.example.org'])
  })

  it('lets a PMTiles archive be fetched', () => {
    expect(
      basemapOrigins({ type: 'pmtiles', url: 'https://cdn.example.org/nm.pmtiles', attribution: 'x' }),
    ).toEqual({ img: [], connect: ['https://cdn.example.org'] })
  })
})
