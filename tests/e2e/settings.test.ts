import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appConfig, fireConfig } from '../../src/shared/config'
import {
  launchBrowser,
  loginSelectors,
  newPage,
  screenshot,
  signIn,
  startServer,
  type TestServer,
} from './support'

// Changes the admin's password and revokes sessions: a server of its own, not the shared one.
let server: TestServer
let browser: Browser
let page: Page
const newPassword = 'Fresh-Ember-Passw0rd-2025!'

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  page = await newPage(browser, { width: 1280, height: 900 })
  await signIn(page, server, { path: '/Settings' })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('Settings', () => {
  it('shows the profile, roles and session expiry', async () => {
    await page.goto(`${server.url}/Settings`)
    await page.waitForSelector('[data-testid="settings-email"]')
    expect(await page.textContent('[data-testid="settings-email"]')).toBe(server.admin.email)
    expect((await page.textContent('[data-testid="settings-roles"]'))?.length).toBeGreaterThan(0)
    expect(await page.textContent('[data-testid="settings-session"]')).toMatch(/Signed in until .+ left/)
    await screenshot(page, 'settings')
  })

  it('stores display preferences per member', async () => {
    await page.goto(`${server.url}/Settings`)
    await page.waitForSelector('input[name="distanceUnits"]')
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/me/preferences') && r.request().method() === 'PUT',
    )
    await page.check('input[name="distanceUnits"][value="km"]', { force: true })
    expect((await saved).status()).toBe(200)
    await page.reload()
    await page.waitForSelector('input[name="distanceUnits"]')
    expect(await page.isChecked('input[name="distanceUnits"][value="km"]')).toBe(true)
  })

  it('shows an administrator the fire consequence run: Run now, then its progress', async () => {
    await page.goto(`${server.url}/Settings`)
    const section = page.locator('[data-testid="settings-fire-runs"]')
    await section.getByText('No consequence run yet.').waitFor()
    const started = page.waitForResponse(
      (r) => r.url().endsWith('/api/fire/runs') && r.request().method() === 'POST',
    )
    await section.getByRole('button', { name: 'Run now' }).click()
    expect((await started).status()).toBe(202)
    // The run is planned over the demo's lines: config/fire.yaml's 8 forecast starts fit the 48-hour
    // wind. FIRE_RUNS is off here, so no worker takes its batches: it stays at 0 of N.
    await section.getByText(/^Run 1 \(run now\), wind run .+: running$/).waitFor()
    const progress = (await section.locator('p').nth(1).textContent()) ?? ''
    const [, done, total, ignitions, starts] =
      /^(\d+) of (\d+) batches, (\d+) ignitions × (\d+) forecast starts; started .+, running$/.exec(
        progress,
      ) ?? []
    expect([Number(done), Number(starts)]).toEqual([0, 8])
    expect(Number(total)).toBe(8 * Math.ceil(Number(ignitions) / fireConfig.run.batchSize))
    expect(await section.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0')
    expect(await section.getByRole('button', { name: 'Run now' }).isDisabled()).toBe(true)
  })

  it('hides the fire consequence run from a member without the fire_runs permission', async () => {
    const member = { email: 'plain.member@emberline.test', password: 'Plain-Member-Passw0rd-42!' }
    execFileSync(
      'npx',
      ['tsx', 'scripts/users.ts', '--data-dir', server.dataDir, 'add', member.email].concat([
        '--phone',
        '+15055550177',
        '--roles',
        'stytch_member',
        '--password',
        member.password,
      ]),
      { cwd: resolve(import.meta.dirname, '../..'), stdio: 'ignore' },
    )
    const other = await newPage(browser, { width: 1280, height: 900 })
    try {
      const asked = other.waitForResponse((r) => r.url().includes('/api/fire/runs?limit=1'), {
        timeout: 60_000,
      })
      await signIn(other, server, { ...member, path: '/Settings' })
      await other.waitForSelector('[data-testid="settings-email"]')
      expect((await asked).status()).toBe(403)
      await other.waitForSelector('[data-testid="settings-roles"]')
      expect(await other.locator('[data-testid="settings-fire-runs"]').count()).toBe(0)
      const status = await other.evaluate(
        async () => (await fetch('/api/fire/runs', { method: 'POST' })).status,
      )
      expect([401, 403]).toContain(status)
    } finally {
      await other.close()
    }
  })

  it('rejects a wrong current password', async () => {
    await page.goto(`${server.url}/Settings`)
    await page.fill('input[name="currentPassword"]', 'not-my-password-at-all')
    await page.fill('input[name="newPassword"]', newPassword)
    await page.fill('input[name="confirmPassword"]', newPassword)
    await page.click('[data-testid="password-form"] button[type="submit"]')
    await page.waitForSelector('[data-testid="password-error"]')
  })

  it('changes the password', async () => {
    await page.goto(`${server.url}/Settings`)
    await page.fill('input[name="currentPassword"]', server.admin.password)
    await page.fill('input[name="newPassword"]', newPassword)
    await page.fill('input[name="confirmPassword"]', newPassword)
    await page.click('[data-testid="password-form"] button[type="submit"]')
    await page.waitForSelector('[data-testid="password-changed"]')
  })

  it('signs out of all sessions, after which only the new password signs in', async () => {
    const other = await newPage(browser)
    await signIn(other, server, { password: newPassword, path: '/Settings' })
    await page.goto(`${server.url}/Settings`)
    await page.click('button:has-text("Sign out of all sessions")')
    await page.click('.bp6-alert button:has-text("Sign out everywhere")')
    await page.waitForURL((url) => /^\/login\//i.test(url.pathname), { timeout: 20_000 })

    // The other browser's session is gone too: its next API call is refused.
    const status = await other.evaluate(async (cookieName) => {
      const entry = document.cookie.split('; ').find((c) => c.startsWith(`${cookieName}=`))
      const token = decodeURIComponent(entry?.slice(cookieName.length + 1) ?? '')
      const response = await fetch('/api/me', { headers: { authorization: `Bearer ${token}` } })
      return response.status
    }, appConfig.identity.cookies.session)
    expect(status).toBe(401)

    await page.fill(loginSelectors.email, server.admin.email)
    await page.fill(loginSelectors.password, server.admin.password)
    await page.click(loginSelectors.submit)
    await page.waitForSelector(loginSelectors.error)
    await signIn(page, server, { password: newPassword, alreadyOnLogin: false })
    await other.close()
  })
})
