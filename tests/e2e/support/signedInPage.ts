import type { Browser, Page } from 'playwright-core'
import { signIn } from './driver'
import { launchBrowser, newPage } from './launchBrowser'
import { sharedServer } from './sharedServer'
import type { TestServer } from './startServer'

/** A browser with one page signed in to the shared server, opened at `path`. */
export interface SignedInPage {
  server: TestServer
  browser: Browser
  page: Page
}

/** The usual start of a journey file: shared server, fresh browser, a page signed in at `path`. */
export async function openSignedInPage(
  path: string,
  size: { width: number; height: number } = { width: 1440, height: 900 },
): Promise<SignedInPage> {
  const server = await sharedServer()
  const browser = await launchBrowser()
  const page = await newPage(browser, size)
  await signIn(page, server, { path })
  return { server, browser, page }
}

/** Closes what openSignedInPage opened (safe when it failed half-way). */
export async function closeSignedInPage(opened: Partial<SignedInPage>): Promise<void> {
  await opened.browser?.close()
  await opened.server?.stop()
}
