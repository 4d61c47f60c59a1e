import fs from 'node:fs'
import http from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'

/**
 * A real ArcGIS FeatureServer: Koop (`@koopjs/koop-core`) with its file-GeoJSON provider, serving
 * GeoJSON files copied into a temp directory, on 127.0.0.1 and a free port. Every request's path
 * and query is recorded (`seen`), so tests can check what our server asked.
 *
 *   const koop = await startKoop({ assets: 'tests/fixtures/features/assets.geojson' })
 *   koop.layerUrl('assets')   // http://127.0.0.1:<port>/file-geojson/rest/services/assets/FeatureServer/0
 *   await koop.close()
 *
 * With `secured: { username, password }` it demands an ArcGIS token as a secured ArcGIS Server
 * does: `POST <url>/arcgis/tokens/generateToken` (form username, password, f=json) answers a new
 * token, and every other request without the current token answers `{"error":{"code":498}}`.
 */
export interface TestKoop {
  readonly url: string
  layerUrl(name: string): string
  /** Requests answered since the last `reset()`, as URL objects. */
  readonly seen: URL[]
  reset(): void
  close(): Promise<void>
  /** With `secured`: the generateToken URL, the form bodies it received, and a way to expire the current token. */
  readonly tokenUrl: string
  readonly exchanges: URLSearchParams[]
  revokeToken(): void
}

export interface KoopOptions {
  readonly secured?: { readonly username: string; readonly password: string }
}

interface KoopInstance {
  register(provider: unknown, options: { dataDir: string }): void
  server: http.RequestListener
}

export async function startKoop(
  files: Readonly<Record<string, string>>,
  options: KoopOptions = {},
): Promise<TestKoop> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-koop-'))
  for (const [name, file] of Object.entries(files)) fs.copyFileSync(file, path.join(dir, `${name}.geojson`))
  // Koop reads its configuration directory through `config`: none here, and no warning about it.
  process.env.SUPPRESS_NO_CONFIG_WARNING = 'true'
  const require = createRequire(import.meta.url)
  const Koop = require('@koopjs/koop-core') as new (o: { logLevel: string }) => KoopInstance
  const koop = new Koop({ logLevel: 'error' })
  // The provider takes its data directory relative to the working directory.
  koop.register(require('@koopjs/provider-file-geojson'), { dataDir: path.relative(process.cwd(), dir) })
  const seen: URL[] = []
  const exchanges: URLSearchParams[] = []
  let token: string | null = null
  let tokenNumber = 0
  const json = (res: http.ServerResponse, body: unknown) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://koop')
    seen.push(url)
    const secured = options.secured
    if (!secured) return koop.server(req, res)
    if (url.pathname === '/arcgis/tokens/generateToken') {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        const form = new URLSearchParams(body)
        exchanges.push(form)
        if (
          req.method !== 'POST' ||
          form.get('username') !== secured.username ||
          form.get('password') !== secured.password
        )
          return json(res, { error: { code: 400, message: 'Unable to generate token.' } })
        token = `koop-token-${++tokenNumber}-${Math.random().toString(36).slice(2)}`
        json(res, { token, expires: Date.now() + 3_600_000, ssl: false })
      })
      return
    }
    if (token === null || url.searchParams.get('token') !== token)
      return json(res, { error: { code: 498, message: 'Invalid token.', details: [] } })
    const forwarded = new URL(url)
    forwarded.searchParams.delete('token')
    req.url = forwarded.pathname + forwarded.search
    koop.server(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    layerUrl: (name) => `${url}/file-geojson/rest/services/${name}/FeatureServer/0`,
    seen,
    reset: () => void seen.splice(0),
    tokenUrl: `${url}/arcgis/tokens/generateToken`,
    exchanges,
    revokeToken: () => void (token = null),
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
