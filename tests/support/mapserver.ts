import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'

/**
 * A real MapServer (Debian's cgi-mapserver, /usr/lib/cgi-bin/mapserv, MapServer 8) behind a tiny
 * Node HTTP server on 127.0.0.1, serving one GeoJSON file as one layer through WMS (EPSG:3857 and
 * EPSG:4326; GetMap, GetFeatureInfo as application/json, GML or text, GetLegendGraphic), WFS and
 * OGC API – Features. Each request runs the CGI program once (env QUERY_STRING, REQUEST_METHOD,
 * PATH_INFO, …) and its CGI answer (headers, blank line, body) becomes the HTTP answer.
 *
 *   const ms = await startMapServer()           // the fire-zones fixture as layer `zones`
 *   ms.wmsUrl                                   // http://127.0.0.1:<port>/wms  (WMS and WFS)
 *   ms.ogcApiUrl                                // …/ogcapi  (…/collections/zones/items?f=json)
 *   await ms.close()
 *
 * Options name another GeoJSON file and layer name; the file is copied into a temp directory
 * that the mapfile and the MapServer CONFIG file are written to (removed on close).
 */
export interface MapServerOptions {
  /** GeoJSON file served (default tests/fixtures/mapserver/fire-zones.geojson). */
  readonly geojson?: string
  /** The layer / collection name (default `zones`). */
  readonly layer?: string
  /** Layer title in capabilities (default `Fire zones`). */
  readonly title?: string
  /** Fill colour as `R G B` (default `220 60 20`). */
  readonly color?: string
}

export interface TestMapServer {
  /** http://127.0.0.1:<port> */
  readonly url: string
  /** The WMS/WFS endpoint (…/wms); add SERVICE=WMS&REQUEST=… */
  readonly wmsUrl: string
  /** The OGC API – Features landing page (…/ogcapi); collections at …/ogcapi/collections/<layer>. */
  readonly ogcApiUrl: string
  /** The layer / collection name. */
  readonly layer: string
  /** Requests answered so far (every path). */
  readonly requests: () => number
  close(): Promise<void>
}

export const MAPSERV = '/usr/lib/cgi-bin/mapserv'
const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/mapserver/fire-zones.geojson')
const MAP_KEY = 'emberline'

export function hasMapServer(): boolean {
  return fs.existsSync(MAPSERV)
}

export async function startMapServer(options: MapServerOptions = {}): Promise<TestMapServer> {
  if (!hasMapServer()) throw new Error(`${MAPSERV} is missing: run scripts/ensure-tools.sh (cgi-mapserver)`)
  const layer = options.layer ?? 'zones'
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-mapserver-'))
  fs.copyFileSync(options.geojson ?? FIXTURE, path.join(dir, 'data.geojson'))
  let count = 0
  const server = http.createServer((req, res) => {
    count++
    runCgi(req, res, dir, base).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String(e))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const mapfile = path.join(dir, 'test.map')
  fs.writeFileSync(mapfile, mapFile(layer, options.title ?? 'Fire zones', options.color ?? '220 60 20', base))
  fs.writeFileSync(
    path.join(dir, 'mapserver.conf'),
    `CONFIG\n  ENV\n    MS_MAP_PATTERN "^${dir}/"\n  END\n  MAPS\n    "${MAP_KEY}" "${mapfile}"\n  END\nEND\n`,
  )
  return {
    url: base,
    wmsUrl: `${base}/wms`,
    ogcApiUrl: `${base}/ogcapi`,
    layer,
    requests: () => count,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

function mapFile(layer: string, title: string, color: string, base: string): string {
  return `MAP
  NAME "emberline_test"
  EXTENT -180 -85 180 85
  SIZE 256 256
  PROJECTION "init=epsg:4326" END
  WEB
    METADATA
      "ows_title" "Emberline test MapServer"
      "ows_enable_request" "*"
      "oga_enable_request" "*"
      "ows_srs" "EPSG:3857 EPSG:4326"
      "ows_onlineresource" "${base}/wms?"
      "oga_onlineresource" "${base}/ogcapi"
      "wms_getfeatureinfo_formatlist" "application/json,application/vnd.ogc.gml,text/plain"
    END
  END
  OUTPUTFORMAT NAME "geojson" DRIVER "OGR/GEOJSON" MIMETYPE "application/json"
    FORMATOPTION "FORM=SIMPLE" FORMATOPTION "STORAGE=memory" END
  OUTPUTFORMAT NAME "png" DRIVER AGG/PNG MIMETYPE "image/png" IMAGEMODE RGBA EXTENSION "png"
    TRANSPARENT ON END
  LAYER
    NAME "${layer}"
    TYPE POLYGON
    STATUS ON
    CONNECTIONTYPE OGR
    CONNECTION "data.geojson"
    PROJECTION "init=epsg:4326" END
    TEMPLATE "query"
    METADATA
      "ows_title" "${title}"
      "gml_include_items" "all"
      "wms_include_items" "all"
      "gml_types" "auto"
      "gml_featureid" "zone_id"
    END
    CLASS
      NAME "${title}"
      STYLE COLOR ${color} OUTLINECOLOR 0 0 0 END
    END
  END
END
`
}

/** Runs mapserv once for one HTTP request and writes its CGI answer as the HTTP answer. */
async function runCgi(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  dir: string,
  base: string,
): Promise<void> {
  const url = new URL(req.url ?? '/', base)
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    MAPSERVER_CONFIG_FILE: path.join(dir, 'mapserver.conf'),
    REQUEST_METHOD: req.method ?? 'GET',
    QUERY_STRING: url.search.slice(1),
    SERVER_NAME: '127.0.0.1',
    SERVER_PORT: url.port,
    SERVER_PROTOCOL: 'HTTP/1.1',
    GATEWAY_INTERFACE: 'CGI/1.1',
    HTTP_HOST: url.host,
  }
  if (url.pathname === '/wms') {
    env.SCRIPT_NAME = '/wms'
    env.MS_MAPFILE = path.join(dir, 'test.map')
  } else if (url.pathname === '/ogcapi' || url.pathname.startsWith('/ogcapi/')) {
    env.SCRIPT_NAME = ''
    env.PATH_INFO = `/${MAP_KEY}${url.pathname}`
  } else {
    res.writeHead(404, { 'content-type': 'text/plain' })
    return void res.end('not found')
  }
  const stdout = await new Promise<Buffer>((resolve, reject) => {
    const child = spawn(MAPSERV, [], { cwd: dir, env, stdio: ['ignore', 'pipe', 'ignore'] })
    const chunks: Buffer[] = []
    child.stdout.on('data', (c: Buffer) => chunks.push(c))
    child.on('error', reject)
    child.on('close', () => resolve(Buffer.concat(chunks)))
  })
  const { status, headers, body } = parseCgiAnswer(stdout)
  res.writeHead(status, headers)
  res.end(body)
}

/** Splits a CGI answer into its status (the `Status:` header, default 200), headers and body. */
export function parseCgiAnswer(out: Buffer): {
  status: number
  headers: Record<string, string>
  body: Buffer
} {
  const crlf = out.indexOf('\r\n\r\n')
  const lf = out.indexOf('\n\n')
  const useCrlf = crlf >= 0 && (lf < 0 || crlf < lf)
  const end = useCrlf ? crlf : lf
  if (end < 0) return { status: 502, headers: { 'content-type': 'text/plain' }, body: out }
  const headers: Record<string, string> = {}
  let status = 200
  for (const line of out.subarray(0, end).toString('latin1').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    if (name === 'status') status = Number.parseInt(value, 10) || 200
    else headers[name] = value
  }
  return { status, headers, body: out.subarray(end + (useCrlf ? 4 : 2)) }
}
