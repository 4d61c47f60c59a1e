import type { TestProject } from 'vitest/node'
import { startServer, type TestAdmin, type TestServer } from './startServer'

export interface SharedServerInfo {
  url: string
  dataDir: string
  admin: TestAdmin
}

declare module 'vitest' {
  export interface ProvidedContext {
    emberlineServer: SharedServerInfo | null
  }
}

let server: TestServer | null = null

/**
 * Starts one seeded server for the whole e2e run (seeding takes ~30 s), shared by tests through
 * sharedServer(). Set EMBERLINE_E2E_SHARED=off to skip it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.EMBERLINE_E2E_SHARED === 'off') {
    project.provide('emberlineServer', null)
    return async () => {}
  }
  server = await startServer()
  project.provide('emberlineServer', { url: server.url, dataDir: server.dataDir, admin: server.admin })
  return async () => {
    await server?.stop()
    server = null
  }
}
