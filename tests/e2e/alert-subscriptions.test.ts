import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operationsConfig } from '../../src/shared/config'
import { api, sessionToken } from './operations.driver'
import { closeSignedInPage, openSignedInPage, screenshot, type TestServer } from './support'

// Settings → Alert subscriptions saves what the member chose; a delivered message's link opens
// the Alerts view with that alert drawn on the map.

interface SubscriptionBody {
  subscription: { rules: string[]; severities: string[]; channel: string; quietHours: unknown } | null
}

const rule = operationsConfig.alerts.rules.find((r) => r.id === 'young-hotspot-near-distribution')!
const POLL = { timeout: 30_000 }
let server: TestServer
let browser: Browser
let page: Page

beforeAll(async () => {
  ;({ server, browser, page } = await openSignedInPage('/Settings'))
}, 180_000)

afterAll(async () => {
  // The server is shared with the other journeys: unsubscribe, so no alert SMS reaches the admin's
  // phone while they read sign-in codes from the outbox (anything still queued is dropped).
  if (page && server)
    await fetch(`${server.url}/api/me/alert-subscription`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await sessionToken(page)}` },
      body: JSON.stringify({ rules: [], severities: [], channel: 'sms', quietHours: null }),
    }).catch(() => undefined)
  await closeSignedInPage({ server, browser })
})

describe('alert subscriptions in Settings', () => {
  it('saves the rules, severities, channel and quiet hours the member chose', async () => {
    await page.goto(`${server.url}/Settings`)
    const section = page.locator('[data-testid="settings-alert-subscriptions"]')
    await section.locator('form').waitFor(POLL)
    await section.getByLabel(new RegExp(`^${rule.title}`)).check({ force: true })
    await section.getByLabel('Warning', { exact: true }).check({ force: true })
    await section.getByLabel('SMS and e-mail').check({ force: true })
    await section.getByLabel(/^Quiet hours \(/).check({ force: true })
    await section.getByLabel('Quiet hours from').fill('21:30')
    await section.getByRole('button', { name: 'Save alert subscriptions' }).click()
    await section.getByText('Saved.').waitFor(POLL)
    const body = await api<SubscriptionBody>(page, server, '/api/me/alert-subscription')
    expect(body.subscription).toEqual({
      rules: [rule.id],
      severities: ['warning'],
      channel: 'both',
      quietHours: { start: '21:30', end: '06:00' },
    })
    await page.reload()
    await section.locator('form').waitFor(POLL)
    expect(await section.getByLabel(new RegExp(`^${rule.title}`)).isChecked()).toBe(true)
  })

  it('shows administrators the delivery log', async () => {
    await page.locator('[data-testid="settings-delivery-log"]').waitFor(POLL)
    await screenshot(page, 'settings-alert-subscriptions')
  })
})

describe('the link of a delivered alert', () => {
  it('opens the Alerts view with that alert on the map', async () => {
    const { alerts } = await api<{ alerts: { id: string }[] }>(page, server, '/api/alerts')
    const id = alerts[alerts.length - 1]!.id
    await page.goto(`${server.url}/Alerts?alert=${encodeURIComponent(id)}`)
    await page.waitForSelector('.leaflet-pane path.el-alert-hazard', POLL)
    expect(await page.locator(`tr[data-alert-id="${id}"]`).getAttribute('class')).toContain('el-ops-selected')
  })
})
