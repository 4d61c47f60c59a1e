import type { Page, Request } from 'playwright-core'
import { appConfig } from '../../src/shared/config'
import type { TestServer } from './support'

/** Domain actions on the attribute-table panel (src/features/tables) for the tables journeys. */
export const tableSelectors = {
  panel: 'section[aria-label="Attribute tables"]',
  view: '.emberline-table-view',
  tab: (tableId: string) => `[role="tab"]:has([data-table-id="${tableId}"])`,
  close: (name: string) => `.emberline-tab-close[data-close="${name}"]`,
  openTable: (layerName: string) => `button[aria-label="Open ${layerName} table"]`,
  rows: '.emberline-table-grid tbody tr',
  chip: '.emberline-filter-chip',
  next: 'button[aria-label="Next page"]',
  page: '.emberline-page',
  exportCsv: '.emberline-export-csv',
  zoomTo: '.emberline-zoom-to',
  highlight: '.emberline-table-highlight',
} as const

export const mapPath = '/PSPS'

/** The session token the browser holds, for calling the data API from the test. */
export async function sessionToken(page: Page): Promise<string> {
  const cookies = await page.context().cookies()
  const token = cookies.find((c) => c.name === appConfig.identity.cookies.session)?.value
  if (!token) throw new Error('no session cookie')
  return token
}

export type ApiRecord = Record<string, unknown>

/** GET a records URL (path + query, as the browser sends it) with the browser's session. */
export async function apiRecords(
  page: Page,
  server: TestServer,
  pathAndQuery: string,
): Promise<{ records: ApiRecord[]; total: number }> {
  const response = await fetch(`${server.url}${pathAndQuery}`, {
    headers: { Authorization: `Bearer ${await sessionToken(page)}`, 'Content-Type': 'application/json' },
  })
  if (!response.ok) throw new Error(`${pathAndQuery}: ${response.status} ${await response.text()}`)
  return (await response.json()) as { records: ApiRecord[]; total: number }
}

export function isRecordsRequest(dataset: string) {
  return (request: Request) => request.url().includes(`/api/data/${dataset}/records`)
}

/** Clicks a layer's table button in the sidebar and waits for that table's first request. */
export async function openTable(page: Page, layerName: string, dataset: string): Promise<Request> {
  const button = page.locator(tableSelectors.openTable(layerName))
  await button.scrollIntoViewIfNeeded()
  const [request] = await Promise.all([page.waitForRequest(isRecordsRequest(dataset)), button.click()])
  return request
}

/** The id of the table whose rows are shown. */
export async function currentTableId(page: Page): Promise<string | null> {
  return page.locator(tableSelectors.view).getAttribute('data-table-id')
}

/** Adds a filter through the Filter popover; resolves with the request it triggers. */
export async function addFilter(
  page: Page,
  dataset: string,
  filter: { field: string; operator?: string; value: string },
): Promise<Request> {
  await page.click('.emberline-add-filter-button')
  await page.selectOption('#emberline-filter-column', filter.field)
  if (filter.operator) await page.selectOption('select#emberline-filter-operator', filter.operator)
  await page.fill('#emberline-filter-value', filter.value)
  const [request] = await Promise.all([
    page.waitForRequest(isRecordsRequest(dataset)),
    page.click('form[aria-label="Add filter"] button[type="submit"]'),
  ])
  return request
}

/** The `filters` parameters of a request, parsed. */
export function requestFilters(request: Request): unknown[] {
  return new URL(request.url()).searchParams.getAll('filters').map((f) => JSON.parse(f) as unknown)
}

/** Texts of one column of the grid's rows. */
export async function columnTexts(page: Page, columnId: string): Promise<string[]> {
  return page.locator(`${tableSelectors.rows} td[data-column="${columnId}"]`).allInnerTexts()
}

/** Waits until the current table has finished loading. */
export async function waitForIdle(page: Page): Promise<void> {
  await page.waitForSelector(`${tableSelectors.view}[aria-busy="false"]`)
}
