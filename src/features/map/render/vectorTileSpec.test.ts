import { describe, expect, it } from 'vitest'
import { sourceById, sourceOfType, type ArcgisFeatureServerSource } from '../../../shared/config'
import { vectorSource, vectorTileSpec } from './vectorTileSpec'

const featureServer: ArcgisFeatureServerSource = {
  id: 'utility_poles',
  type: 'arcgis-featureserver',
  url: 'https://gis.example.com/server/rest/services/Poles/FeatureServer/0',
  where: "status = 'ACTIVE'",
  attribution: 'Example Utility',
  minzoom: 9,
  maxzoom: 16,
}

describe('vectorTileSpec', () => {
  it("draws another server's features from our server's vector tiles, never the upstream URL", () => {
    expect(vectorTileSpec(featureServer, false)).toEqual({
      url: '/api/sources/utility_poles/tiles/{z}/{x}/{y}',
      minZoom: 9,
      maxDataZoom: 16,
      tileSize: 256,
    })
    for (const type of ['ogc-features', 'geojson'] as const) {
      const spec = vectorTileSpec(
        { ...featureServer, id: `a_${type.replace('-', '_')}`, type } as never,
        true,
      )
      expect(spec.url).toBe(`/api/sources/a_${type.replace('-', '_')}/tiles/{z}/{x}/{y}`)
    }
  })

  it('keeps our own mvt sources on /api/tiles with their zooms and tile size', () => {
    const mvt = sourceOfType('epss_lines_mvt', 'mvt')
    expect(vectorTileSpec(mvt, false)).toEqual({
      url: `/api/tiles/${mvt.path}/mvt/{z}/{x}/{y}`,
      minZoom: mvt.minzoom,
      maxDataZoom: mvt.maxzoom,
      tileSize: mvt.tileSize,
    })
  })

  it('refuses a raster source for a vector paint', () => {
    expect(() => vectorSource(sourceById('smoke_png'))).toThrow(
      "Source 'smoke_png' in config/layers.yaml is png, not a vector source",
    )
    expect(vectorSource(featureServer)).toBe(featureServer)
  })
})
