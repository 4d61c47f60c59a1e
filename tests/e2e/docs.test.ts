import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appConfig, envGatedLayerIds, layersConfig } from '../../src/shared/config'
import { screenshot, type TestServer, openSignedInPage, closeSignedInPage } from './support'

let server: TestServer
let browser: Browser
let page: Page

beforeAll(async () => {
  ;({ server, browser, page } = await openSignedInPage('/Documentation', { width: 1280, height: 900 }))
})

afterAll(() => closeSignedInPage({ server, browser }))

describe('Documentation and Help', () => {
  it('documents every configured layer under its category', async () => {
    await page.goto(`${server.url}/Documentation`)
    await page.waitForSelector('[data-layer-id]')
    const ids = await page.$$eval('[data-layer-id]', (nodes) =>
      nodes.map((n) => n.getAttribute('data-layer-id')),
    )
    // Layers of the utility's own servers are documented only while their variable is set.
    const gated = envGatedLayerIds()
    expect([...ids].sort()).toEqual(
      layersConfig.layers
        .filter((l) => !gated.has(l.id))
        .map((l) => l.id)
        .sort(),
    )
    for (const category of layersConfig.categories) {
      expect(await page.textContent(`[data-category-id="${category.id}"] h2`)).toBe(category.name)
    }
    const psps = '[data-layer-id="psps"]'
    expect(await page.textContent(psps)).toContain('Hourly for the next 18 hours.')
    expect(await page.$$(`${psps} .el-legend`)).not.toHaveLength(0)
    expect(await page.textContent('#risk-labels')).toContain('0.5 to below 0.75')
    await screenshot(page, 'documentation')
  })

  it('is reached case-insensitively and needs no map', async () => {
    await page.goto(`${server.url}/documentation`)
    await page.waitForSelector('[data-layer-id="epss"]')
    expect(await page.$$('.leaflet-container')).toHaveLength(0)
  })

  it('shows help with the configured contact', async () => {
    await page.goto(`${server.url}/help`)
    await page.waitForSelector('#help-contact')
    const contact = await page.textContent('section[aria-labelledby="help-contact"]')
    expect(contact).toContain(appConfig.contact.email)
    expect(contact).toContain(appConfig.contact.phone)
    expect(await page.textContent('main')).toContain('Signing in and the SMS step')
  })
})
