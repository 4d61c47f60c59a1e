import http from 'node:http'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ArcgisMapServerSource, WmtsSource } from '../../src/shared/config'
import { sourcesApp, startLocalServer, type LocalServer } from '../support/sourceServers'
import { AUTH, type TestApp } from './testApp'

// WMTS and ArcGIS MapServer against a small local server speaking their protocols (capabilities XML,
// service JSON, tiles, export, identify, legend, generateToken): MapServer serves neither.

const tile = (() => {
  const png = new PNG({ width: 256, height: 256 })
  for (let i = 0; i < png.data.length; i += 4) png.data.set([200, 40, 10, 255], i)
  return PNG.sync.write(png)
})()

interface Seen {
  path: string
  query: URLSearchParams
  body: string
}
let seen: Seen[] = []
let port = 0
let tokenNumber = 0
/** The one token the secured service takes now (a new one is made by each generateToken). */
let validToken = ''

const Z0 = 559082264.0287178
function matrices(n: number): string {
  return Array.from(
    { length: n },
    (
      _,
      z,
    ) => `<TileMatrix><ows:Identifier>L${z}</ows:Identifier><ScaleDenominator>${Z0 / 2 ** z}</ScaleDenominator>
      <TopLeftCorner>-20037508.3427892 20037508.3427892</TopLeftCorner><TileWidth>256</TileWidth><TileHeight>256</TileHeight>
      <MatrixWidth>${2 ** z}</MatrixWidth><MatrixHeight>${2 ** z}</MatrixHeight></TileMatrix>`,
  ).join('')
}
function capabilities(rest: boolean): string {
  const resource = rest
    ? `<ResourceURL format="image/png" resourceType="tile" template="http://127.0.0.1:${port}/rest/fire/{Style}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.png"/>`
    : ''
  return `<?xml version="1.0"?>
<Capabilities xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1" version="1.0.0">
  <Contents>
    <Layer><ows:Identifier>fire_danger</ows:Identifier>
      <Style isDefault="false"><ows:Identifier>plain</ows:Identifier></Style>
      <Style isDefault="true"><ows:Identifier>classes</ows:Identifier></Style>
      <Format>image/jpeg</Format><Format>image/png</Format>
      <TileMatrixSetLink><TileMatrixSet>WGS84</TileMatrixSet></TileMatrixSetLink>
      <TileMatrixSetLink><TileMatrixSet>WebMercator</TileMatrixSet></TileMatrixSetLink>
      ${resource}
    </Layer>
    <Layer><ows:Identifier>polar_ice</ows:Identifier>
      <Style isDefault="true"><ows:Identifier>default</ows:Identifier></Style><Format>image/png</Format>
      <TileMatrixSetLink><TileMatrixSet>WGS84</TileMatrixSet></TileMatrixSetLink>
    </Layer>
    <TileMatrixSet><ows:Identifier>WGS84</ows:Identifier><ows:SupportedCRS>urn:ogc:def:crs:EPSG::4326</ows:SupportedCRS>
      <TileMatrix><ows:Identifier>0</ows:Identifier><ScaleDenominator>279541132.0143589</ScaleDenominator>
      <TopLeftCorner>90 -180</TopLeftCorner><TileWidth>256</TileWidth><TileHeight>256</TileHeight>
      <MatrixWidth>2</MatrixWidth><MatrixHeight>1</MatrixHeight></TileMatrix></TileMatrixSet>
    <TileMatrixSet><ows:Identifier>WebMercator</ows:Identifier><ows:SupportedCRS>urn:ogc:def:crs:EPSG::3857</ows:SupportedCRS>
      ${matrices(19)}</TileMatrixSet>
  </Contents>
</Capabilities>`
}

const json = (res: http.ServerResponse, body: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}
const png = (res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'max-age=60' })
  res.end(tile)
}

const LODS = Array.from({ length: 20 }, (_, level) => ({ level, scale: 591657527.591555 / 2 ** level }))
const TILE_INFO = {
  rows: 256,
  cols: 256,
  origin: { x: -20037508.342787, y: 20037508.342787 },
  spatialReference: { wkid: 102100, latestWkid: 3857 },
  lods: LODS,
}
const SWATCH = tile.toString('base64')

function serve(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x')
  let body = ''
  req.on('data', (c: Buffer) => (body += c.toString()))
  req.on('end', () => {
    seen.push({ path: url.pathname, query: url.searchParams, body })
    const p = url.pathname
    const q = url.searchParams
    if (p === '/wmts' && q.get('REQUEST') === 'GetCapabilities') {
      res.writeHead(200, { 'content-type': 'application/xml' })
      return void res.end(capabilities(false))
    }
    if (p === '/wmts' && q.get('REQUEST') === 'GetTile') return png(res)
    if (p === '/rest/WMTSCapabilities.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' })
      return void res.end(capabilities(true))
    }
    if (p.startsWith('/rest/fire/')) return png(res)
    if (p === '/arcgis/tokens/generateToken') {
      const form = new URLSearchParams(body)
      if (req.method !== 'POST' || form.get('password') !== 'pw-secret-99')
        return json(res, { error: { code: 400, message: 'Unable to generate token.' } })
      validToken = `tk${++tokenNumber}`
      return json(res, { token: validToken, expires: Date.now() + 3_600_000 })
    }
    const m = /^\/arcgis\/rest\/services\/(\w+)\/MapServer(\/.*)?$/.exec(p)
    if (m) {
      const [, service, rest = ''] = m
      if (service === 'Secure' && q.get('token') !== validToken)
        return json(res, { error: { code: 498, message: 'Invalid token.' } })
      if (rest === '' || rest === '/') return json(res, service === 'Cached' ? { tileInfo: TILE_INFO } : {})
      if (rest.startsWith('/tile/') || rest === '/export') return png(res)
      if (rest === '/identify')
        return json(res, {
          results: [{ layerId: 2, layerName: 'Substations', attributes: { NAME: 'Bernalillo', KV: 115 } }],
        })
      if (rest === '/legend')
        return json(res, {
          layers: [
            {
              layerId: 2,
              layerName: 'Substations',
              legend: [{ label: 'Substation', imageData: SWATCH, contentType: 'image/png' }],
            },
            {
              layerId: 5,
              layerName: 'Other',
              legend: [{ label: 'Hidden', imageData: SWATCH, contentType: 'image/png' }],
            },
          ],
        })
    }
    res.writeHead(404).end()
  })
}

let upstream: LocalServer
let t: TestApp
beforeAll(async () => {
  upstream = await startLocalServer(serve)
  port = upstream.port
  const base = `http://127.0.0.1:${port}`
  const common = { attribution: 'Test', minzoom: 0, maxzoom: 18, allowPrivateNetwork: true }
  const wmts = (id: string, url: string, extra: Partial<WmtsSource> = {}): WmtsSource => ({
    id,
    type: 'wmts',
    url,
    ...common,
    ...extra,
  })
  const ags = (
    id: string,
    service: string,
    extra: Partial<ArcgisMapServerSource> = {},
  ): ArcgisMapServerSource => ({
    id,
    type: 'arcgis-mapserver',
    url: `${base}/arcgis/rest/services/${service}/MapServer`,
    ...common,
    ...extra,
  })
  const sources = [
    wmts('wmts_kvp', `${base}/wmts`, { layer: 'fire_danger' }),
    wmts('wmts_first', `${base}/wmts?SERVICE=WMTS&REQUEST=GetCapabilities`),
    wmts('wmts_rest', `${base}/rest/WMTSCapabilities.xml`, { layer: 'fire_danger', style: 'plain' }),
    wmts('wmts_polar', `${base}/wmts`, { layer: 'polar_ice' }),
    wmts('wmts_nolayer', `${base}/wmts`, { layer: 'nope' }),
    wmts('wmts_wgs', `${base}/wmts`, { layer: 'fire_danger', tileMatrixSet: 'WGS84' }),
    ags('ags_cached', 'Cached'),
    ags('ags_dynamic', 'Dyn', { layers: '2,3' }),
    ags('ags_secure', 'Secure', {
      layers: '2',
      tokenExchange: {
        url: `${base}/arcgis/tokens/generateToken`,
        username: '${H3_AGS_USER}',
        password: '${H3_AGS_PASSWORD}',
      },
    }),
    ags('ags_static', 'Secure', { token: '${H3_AGS_TOKEN}' }),
  ]
  t = await sourcesApp({
    sources,
    env: { H3_AGS_USER: 'gis', H3_AGS_PASSWORD: 'pw-secret-99', H3_AGS_TOKEN: 'static-1' },
  })
}, 60_000)
afterAll(async () => {
  await t?.close()
  await upstream?.close()
})

const get = (url: string) => t.app.inject({ url, headers: AUTH })
const last = (prefix: string) => seen.filter((s) => s.path.startsWith(prefix)).at(-1)!

describe('wmts', () => {
  it('KVP: GetCapabilities once, then GetTile in the EPSG:3857 set with the default style and PNG', async () => {
    seen = []
    const res = await get('/api/sources/wmts_kvp/tiles/5/9/12')
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.equals(tile)).toBe(true)
    expect(Object.fromEntries(last('/wmts').query)).toEqual({
      SERVICE: 'WMTS',
      REQUEST: 'GetTile',
      VERSION: '1.0.0',
      LAYER: 'fire_danger',
      STYLE: 'classes',
      TILEMATRIXSET: 'WebMercator',
      TILEMATRIX: 'L5',
      TILEROW: '12',
      TILECOL: '9',
      FORMAT: 'image/png',
    })
    await get('/api/sources/wmts_kvp/tiles/6/9/12')
    expect(seen.filter((s) => s.query.get('REQUEST') === 'GetCapabilities')).toHaveLength(1)
    // No layer named: the first of the capabilities.
    expect((await get('/api/sources/wmts_first/tiles/3/1/2')).statusCode).toBe(200)
    expect(last('/wmts').query.get('LAYER')).toBe('fire_danger')
  })

  it('REST: the ResourceURL template filled with style, set, matrix, row and column', async () => {
    seen = []
    const res = await get('/api/sources/wmts_rest/tiles/4/3/5')
    expect(res.statusCode).toBe(200)
    expect(last('/rest/fire/').path).toBe('/rest/fire/plain/WebMercator/L4/5/3.png')
  })

  it('a layer without an EPSG:3857 set, an unknown layer, a set we cannot map: 502 JSON naming why', async () => {
    const polar = await get('/api/sources/wmts_polar/tiles/2/1/1')
    expect(polar.statusCode).toBe(502)
    expect(polar.json().message).toMatch(/polar_ice.*no EPSG:3857 GoogleMapsCompatible tile matrix set/)
    const unknown = await get('/api/sources/wmts_nolayer/tiles/2/1/1')
    expect(unknown.statusCode).toBe(502)
    expect(unknown.json().message).toBe("WMTS layer 'nope' is not offered (layers: fire_danger, polar_ice)")
    const wgs = await get('/api/sources/wmts_wgs/tiles/2/1/1')
    expect(wgs.statusCode).toBe(502)
    expect(wgs.json()).toMatchObject({ error: 'bad_gateway', source: 'wmts_wgs' })
    expect(wgs.json().message).toMatch(/'WGS84'.*is not EPSG:3857/)
  })
})

describe('arcgis-mapserver', () => {
  it('a cached service (tileInfo in 3857) is read from /tile/{level}/{y}/{x}', async () => {
    seen = []
    const res = await get('/api/sources/ags_cached/tiles/7/25/50')
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.equals(tile)).toBe(true)
    expect(last('/arcgis/').path).toBe('/arcgis/rest/services/Cached/MapServer/tile/7/50/25')
  })

  it('a dynamic service is drawn with export of the tile box; identify and legend answer our JSON', async () => {
    seen = []
    expect((await get('/api/sources/ags_dynamic/tiles/1/0/0')).statusCode).toBe(200)
    const exp = last('/arcgis/')
    expect(exp.path).toBe('/arcgis/rest/services/Dyn/MapServer/export')
    expect(Object.fromEntries(exp.query)).toEqual({
      bbox: '-20037508.34,0.00,0.00,20037508.34',
      bboxSR: '3857',
      imageSR: '3857',
      size: '256,256',
      format: 'png32',
      transparent: 'true',
      f: 'image',
      layers: 'show:2,3',
    })
    const info = await get('/api/sources/ags_dynamic/info?lon=-106.5&lat=35&z=10')
    expect(info.statusCode).toBe(200)
    expect(info.json()).toEqual({
      source: 'ags_dynamic',
      features: [{ layer: 'Substations', attributes: { NAME: 'Bernalillo', KV: 115 } }],
    })
    const identify = last('/arcgis/').query
    expect(identify.get('layers')).toBe('all:2,3')
    expect(identify.get('sr')).toBe('3857')
    const legend = await get('/api/sources/ags_dynamic/legend')
    expect(legend.statusCode).toBe(200)
    expect(legend.json().entries).toEqual([
      { layer: 'Substations', label: 'Substation', image: `data:image/png;base64,${SWATCH}` },
    ])
    expect((await get('/api/sources/ags_dynamic/info?lon=-106.5&lat=35')).json()).toMatchObject({
      error: 'bad_request',
      parameter: 'z',
    })
  })

  it('token exchange: generateToken (POST, password from env) once, token kept on the server, renewed after 498', async () => {
    seen = []
    tokenNumber = 0
    const first = await get('/api/sources/ags_secure/tiles/3/1/2')
    expect(first.statusCode).toBe(200)
    const exchanges = () => seen.filter((s) => s.path === '/arcgis/tokens/generateToken')
    expect(exchanges()).toHaveLength(1)
    expect(new URLSearchParams(exchanges()[0]!.body).get('username')).toBe('gis')
    expect(exchanges()[0]!.query.toString()).toBe('') // credentials in the POST body, not the URL
    expect(last('/arcgis/rest/').query.get('token')).toBe('tk1')
    expect(JSON.stringify(first.headers)).not.toContain('tk1')
    await get('/api/sources/ags_secure/tiles/3/1/3')
    expect(exchanges()).toHaveLength(1)
    // The server forgets the token: the next request gets 498, a new token, and succeeds.
    validToken = 'revoked'
    tokenNumber = 10
    const after = await get('/api/sources/ags_secure/tiles/3/2/3')
    expect(after.statusCode).toBe(200)
    expect(exchanges()).toHaveLength(2)
    expect(last('/arcgis/rest/').query.get('token')).toBe('tk11')
  })

  it('a static token from the environment; a refused one is 502 JSON', async () => {
    seen = []
    const refused = await get('/api/sources/ags_static/tiles/3/1/2')
    expect(refused.statusCode).toBe(502)
    expect(refused.json()).toMatchObject({ error: 'bad_gateway', source: 'ags_static' })
    expect(last('/arcgis/rest/').query.get('token')).toBe('static-1')
  })
})
