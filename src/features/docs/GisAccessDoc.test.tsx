import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { layersConfig, tablesConfig } from '../../shared/config'
import { DocumentationScreen } from './DocumentationScreen'
import { GisAccessSection } from './GisAccessDoc'
import { buildGisAccessDoc } from './buildGisAccessDoc'

describe('Use in QGIS / GDAL', () => {
  it('gives every table dataset its collection URL and GDAL commands with the session header', () => {
    const html = renderToStaticMarkup(<GisAccessSection origin="https://e.example" />)
    // A table over another server's features (source, no dataset) has no collection of ours.
    for (const table of tablesConfig.tables.filter((t) => t.dataset !== undefined))
      expect(html).toContain(`https://e.example/ogc/collections/${table.dataset}`)
    expect(html).toContain(
      'ogr2ogr -f GPKG buildings.gpkg --config GDAL_HTTP_HEADERS &quot;Authorization: Bearer $EMBERLINE_TOKEN&quot; -oo PAGE_SIZE=10000 OAPIF:https://e.example/ogc buildings',
    )
    expect(html).toContain('https://e.example/api/tiles/buildings/tilejson.json')
  })

  it('lists a TileJSON for every tile source a layer draws (raster on png/ where a path has both)', () => {
    const doc = buildGisAccessDoc('https://e.example')
    const epss = doc.layers.find((l) => l.id === 'epss')
    expect(epss?.tileJson.map((x) => x.url)).toEqual(
      expect.arrayContaining([
        'https://e.example/api/tiles/enhanced_powerline_safety_settings/tilejson.json',
        'https://e.example/api/tiles/enhanced_powerline_safety_settings/png/tilejson.json',
      ]),
    )
    const withSources = layersConfig.layers.filter((l) =>
      l.layers.some((id) => {
        const m = layersConfig.mapLayers.find((x) => x.id === id)
        const s = layersConfig.sources.find((x) => x.id === m?.source)
        return s?.type === 'mvt' || s?.type === 'png'
      }),
    )
    for (const l of withSources)
      expect(doc.layers.find((x) => x.id === l.id)?.tileJson.length, l.id).toBeGreaterThan(0)
  })

  it('is part of the Documentation page, with a contents entry', () => {
    const html = renderToStaticMarkup(<DocumentationScreen />)
    expect(html).toContain('href="#gis-access"')
    expect(html).toContain('id="gis-access"')
  })
})
