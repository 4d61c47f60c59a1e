import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { inject } from 'vitest'
import './globalSetup'
import { startServer, type TestServer } from './startServer'

/**
 * The run's shared server (started once by globalSetup), or a fresh one when there is none.
 * Its stop() only stops a server this call started. Tests that change shared state (passwords,
 * lockouts, members) should use startServer() instead.
 */
export async function sharedServer(): Promise<TestServer> {
  const info = inject('emberlineServer')
  if (!info) return startServer()
  const logPath = join(info.dataDir, 'server.log')
  return {
    ...info,
    admin: { ...info.admin },
    log: () => (existsSync(logPath) ? readFileSync(logPath, 'utf8') : ''),
    stop: async () => {},
  }
}
