import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'

/** Debian's chromium with the flags every Emberline browser test uses (temp profile per launch). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  })
}

export interface PageOptions {
  width?: number
  height?: number
  /** Share cookies/localStorage with another page (a second tab). */
  context?: BrowserContext
}

/** A new page (in a fresh context unless one is given) with console errors collected. */
export async function newPage(browser: Browser, options: PageOptions = {}): Promise<Page> {
  const context =
    options.context ??
    (await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 800 } }))
  const page = await context.newPage()
  if (options.context && (options.width || options.height)) {
    await page.setViewportSize({ width: options.width ?? 1280, height: options.height ?? 800 })
  }
  return page
}

export const resultsDir = resolve(import.meta.dirname, '../../../test-results')

/** Saves a full-page screenshot to test-results/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(resultsDir, { recursive: true })
  const path = resolve(resultsDir, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}
