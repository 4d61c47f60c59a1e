import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { launchBrowser } from './launchBrowser'
import { sharedServer } from './sharedServer'
import type { TestServer } from './startServer'

/** The run's shared server and a browser of this file's own, set in beforeAll. */
export interface SharedSuite {
  readonly server: TestServer
  readonly browser: Browser
}

/**
 * Registers the usual set-up of a browser test file: the run's shared server and a fresh browser
 * before the file's tests, both let go after them. Read `server` and `browser` inside tests.
 */
export function sharedServerAndBrowser(): SharedSuite {
  const suite: { server?: TestServer; browser?: Browser } = {}
  beforeAll(async () => {
    suite.server = await sharedServer()
    suite.browser = await launchBrowser()
  })
  afterAll(async () => {
    await suite.browser?.close()
    await suite.server?.stop()
  })
  return {
    get server() {
      if (!suite.server) throw new Error('the shared server is set in beforeAll')
      return suite.server
    },
    get browser() {
      if (!suite.browser) throw new Error('the browser is set in beforeAll')
      return suite.browser
    },
  }
}
