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
 */
export interface TestKoop {
  readonly url: string
  layerUrl(name: string): string
  /** Requests answered since the last `reset()`, as URL objects. */
  readonly seen: URL[]
  reset(): void
  close(): Promise<void>
}

interface KoopInstance {
  register(provider: unknown, options: { dataDir: string }): void
  server: http.RequestListener
}

export async function startKoop(files: Readonly<Record<string, string>>): Promise<TestKoop> {
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
  const server = http.createServer((req, res) => {
    seen.push(new URL(req.url ?? '/', 'http://koop'))
    koop.server(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    layerUrl: (name) => `${url}/file-geojson/rest/services/${name}/FeatureServer/0`,
    seen,
    reset: () => void seen.splice(0),
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
