import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { buildApp } from '../../src/server/app'
import type { SourceRoutesOptions } from '../../src/server/sources/sourceRoutes'
import { defaultCatalog } from '../../src/server/store/catalog'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { tempDir, testApp, testVerifier, type TestApp } from '../api/testApp'

/**
 * The set-up the source-proxy tests share: the real app (demo data directory, SQLite, the test
 * session verifier) serving the given external sources at /api/sources/<id>/.
 *
 *   t = await sourcesApp({ sources, env: { KEY: 'secret' } })
 */
export async function sourcesApp(sources: SourceRoutesOptions): Promise<TestApp> {
  const dataDir = tempDir()
  const store = await openDataDirStore(dataDir, defaultCatalog())
  const app = await buildApp({ dataDir, demo: true, store, verifier: testVerifier, sources })
  return testApp(app, store, dataDir)
}

/** A local upstream: an HTTP server on 127.0.0.1 and a free port. */
export interface LocalServer {
  readonly server: http.Server
  readonly port: number
  /** http://127.0.0.1:<port> */
  readonly url: string
  close(): Promise<void>
}

export async function startLocalServer(handler: http.RequestListener): Promise<LocalServer> {
  const server = http.createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A port on 127.0.0.1 that answers nothing (a server started and closed again). */
export async function closedPort(): Promise<number> {
  const gone = await startLocalServer(() => undefined)
  await gone.close()
  return gone.port
}
