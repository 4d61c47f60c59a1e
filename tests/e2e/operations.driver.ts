import type { Page } from 'playwright-core'
import { appConfig } from '../../src/shared/config'
import type { TestServer } from './support'

/** Selectors of the /PSPS and /PlanningMode panels. */
export const opsSelectors = {
  pspsTable: '.el-psps-table',
  pspsRows: '.el-psps-table tbody tr',
  pspsFooter: '.el-psps-table tfoot tr',
  pspsHeader: (field: string) => `.el-psps-table th[data-field="${field}"] button`,
  pspsExport: '.el-psps-export',
  highlightPane: '.leaflet-el-ops-highlight-pane',
  planningPanel: '.el-planning-panel',
  planningRows: '.el-planning-table tbody tr',
  planningHandle: '[aria-label="Forecast hour"]',
  planningValid: '.el-planning-valid',
  threshold: (key: string) => `.el-planning-threshold input[aria-label="What-if threshold for ${key} (mph)"]`,
  resetAll: '.el-planning-overrides button:has-text("Reset all")',
}

export async function sessionToken(page: Page): Promise<string> {
  const cookies = await page.context().cookies()
  const token = cookies.find((c) => c.name === appConfig.identity.cookies.session)?.value
  if (!token) throw new Error('not signed in: no session cookie')
  return decodeURIComponent(token)
}

/** GET an API path with the browser's session. */
export async function api<T>(page: Page, server: TestServer, pathAndQuery: string): Promise<T> {
  const response = await fetch(`${server.url}${pathAndQuery}`, {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
  })
  if (!response.ok) throw new Error(`${pathAndQuery}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

/** Texts of one column (by data-field) of the table rows or footer. */
export async function columnTexts(page: Page, rowSelector: string, field: string): Promise<string[]> {
  return page.$$eval(`${rowSelector} td[data-field="${field}"]`, (cells) =>
    cells.map((c) => (c.textContent ?? '').trim()),
  )
}

/** A displayed number back to a number ('1,234' → 1234). */
export const shownNumber = (text: string) => Number(text.replace(/[^0-9.-]/g, ''))

/** Collects the URLs of the PNG tile requests a page makes. */
export function pngRequests(page: Page): { urls: string[]; clear(): void } {
  const urls: string[] = []
  page.on('request', (r) => {
    if (/\/api\/tiles\/.+\/png\/\d+\/\d+\/\d+/.test(r.url())) urls.push(r.url())
  })
  return {
    urls,
    clear: () => {
      urls.length = 0
    },
  }
}

export const hourOf = (url: string) => new URL(url).searchParams.get('hour')
