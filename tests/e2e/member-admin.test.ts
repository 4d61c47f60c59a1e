import { createRequire } from 'node:module'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { identitySettings } from '../../src/server/identity/settings'
import { appConfig } from '../../src/shared/config'
import {
  launchBrowser,
  loginSelectors,
  newPage,
  outboxCount,
  screenshot,
  signIn,
  startServer,
  waitForOutbox,
  type TestServer,
} from './support'

// Member administration journeys (issue #22 item 3). They add and disable members: a server of
// their own, not the shared one. The admin and the invited member use separate browser contexts.
let server: TestServer
let browser: Browser
let admin: Page
let member: Page
const invited = { email: 'planner@emberline.test', password: 'Planner-first-Passw0rd', phone: '+15055550166' }

/** The session token the SDK keeps in the page's cookie. */
const tokenOf = async (page: Page) =>
  (await page.context().cookies()).find((c) => c.name === 'stytch_session')?.value ?? ''

/** Status of a request made from inside a page with its own session token. */
const statusFrom = (page: Page, url: string, token: string) =>
  page.evaluate(async ([u, t]) => (await fetch(u, { headers: { Authorization: `Bearer ${t}` } })).status, [
    url,
    token,
  ] as const)

/** Serious or critical WCAG 2.1 A/AA findings of axe-core inside `selector` (rule: target). */
async function axeFailures(page: Page, selector: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') })
  }
  return page.evaluate(async (sel) => {
    interface Violation {
      id: string
      impact?: string | null
      nodes: { target: unknown[]; impact?: string | null }[]
    }
    const axe = (
      window as unknown as { axe: { run(c: Element, o: object): Promise<{ violations: Violation[] }> } }
    ).axe
    const root = document.querySelector(sel)
    if (!root) return [`${sel}: not found`]
    const { violations } = await axe.run(root, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    })
    return violations.flatMap((v) =>
      v.nodes
        .filter((n) => ['serious', 'critical'].includes(n.impact ?? v.impact ?? ''))
        .map((n) => `${v.id}: ${n.target.map(String).join(' ')}`),
    )
  }, selector)
}

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  // The administrator's page ignores the CSP only so that axe-core can be injected (axe test below).
  const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true })
  admin = await newPage(browser, { context: adminContext })
  member = await newPage(browser, { width: 1280, height: 900 })
  await signIn(admin, server, { path: '/Settings' })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('member administration', () => {
  it('shows an administrator the Organization section with the members', async () => {
    await admin.goto(`${server.url}/Settings`)
    await admin.waitForSelector('[data-testid="settings-organization"] h2:has-text("Organization")')
    await admin.waitForSelector(`[data-testid="org-members"] tr[data-member="${server.admin.email}"]`)
    await admin.waitForSelector('[data-testid="org-audit"]')
  })

  it('has no serious or critical axe-core finding in the section and the Manage dialog', async () => {
    await admin.waitForSelector('[data-testid="org-audit"] tbody tr')
    expect(await axeFailures(admin, '[data-testid="settings-organization"]')).toEqual([])
    await admin.click(`button[aria-label="Manage ${server.admin.email}"]`)
    try {
      await admin.waitForSelector('.bp6-dialog')
      // After the opening transition: half-faded text would be a contrast finding of the animation.
      await admin.waitForFunction(() => {
        for (let el = document.querySelector('.bp6-dialog'); el; el = el.parentElement) {
          const { opacity, transform } = getComputedStyle(el)
          if (opacity !== '1' || !['none', 'matrix(1, 0, 0, 1, 0, 0)'].includes(transform)) return false
        }
        return true
      })
      expect(await axeFailures(admin, '.bp6-dialog')).toEqual([])
    } finally {
      await admin.keyboard.press('Escape')
      await admin.waitForSelector('.bp6-dialog', { state: 'detached' })
    }
  })

  it('invites a member, who sets a password from the link, enrols a phone and signs in with the SMS code', async () => {
    const mails = outboxCount(server.dataDir, 'email', invited.email)
    await admin.fill('#org-invite-email', invited.email)
    await admin.fill('#org-invite-name', 'Field Planner')
    await admin.click('button:has-text("Send invitation")')
    await admin.waitForSelector(`text=Invitation sent to ${invited.email}.`)
    await admin.waitForSelector(
      `[data-testid="org-members"] tr[data-member="${invited.email}"]:has-text("Invited")`,
    )
    const mail = await waitForOutbox(server.dataDir, 'email', { after: mails, to: invited.email })
    expect(mail.link).toContain('/login/Reset?stytch_token_type=multi_tenant_passwords&token=')

    await member.goto(mail.link)
    await member.fill(loginSelectors.newPassword, invited.password)
    await member.click(loginSelectors.submit)
    // No phone yet: the member names one, and the code goes there.
    await member.waitForSelector('input[name="phone"]', { timeout: 20_000 })
    const sent = outboxCount(server.dataDir, 'sms', invited.phone)
    await member.fill('input[name="phone"]', invited.phone)
    await member.click('button:has-text("Send code")')
    await member.waitForSelector(loginSelectors.code, { timeout: 20_000 })
    const sms = await waitForOutbox(server.dataDir, 'sms', { after: sent, to: invited.phone })
    await member.fill(loginSelectors.code, sms.code)
    await member.click(loginSelectors.submit)
    await member.waitForURL((url) => !/^\/login\//i.test(url.pathname), { timeout: 20_000 })
    await screenshot(admin, 'settings-organization')
  })

  it('shows a member without the admin role no Organization section, and refuses their admin calls', async () => {
    await member.goto(`${server.url}/Settings`)
    await member.waitForSelector('[data-testid="settings-email"]')
    expect(await member.textContent('[data-testid="settings-email"]')).toBe(invited.email)
    // The whole page has loaded its sections; still no Organization section.
    await member.waitForSelector('[data-testid="settings-profile"]')
    expect(await member.locator('[data-testid="settings-organization"]').count()).toBe(0)
    expect(await member.locator('text=Invite a member').count()).toBe(0)
    const token = await tokenOf(member)
    expect(await statusFrom(member, '/api/admin/audit', token)).toBe(403)
    const search = await member.evaluate(async (publicToken) => {
      const basic = btoa(`${publicToken}:${document.cookie.match(/stytch_session=([^;]+)/)?.[1] ?? ''}`)
      const res = await fetch('/sdk/v1/b2b/organizations/me/members/search', {
        method: 'POST',
        headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/json' },
        body: '{}',
      })
      return res.status
    }, appConfig.identity.publicToken)
    expect(search).toBe(403)
  })

  it("disabling a member ends the member's sessions at once", async () => {
    const token = await tokenOf(member)
    expect(await statusFrom(member, '/api/me', token)).toBe(200)
    await admin.goto(`${server.url}/Settings`)
    await admin.click(`button[aria-label="Manage ${invited.email}"]`)
    await admin.click('.bp6-dialog button:has-text("Disable member")')
    await admin.click('.bp6-alert button:has-text("Disable member")')
    await admin.waitForSelector('.bp6-dialog :text("Member disabled; sessions ended.")')
    // At once: the very next request with the member's token is refused, data API included.
    expect(await statusFrom(member, '/api/me', token)).toBe(401)
    expect(await statusFrom(member, '/api/data/buildings/records?limit=1', token)).toBe(401)
    // And the app sends the member to the sign-in page on the next navigation.
    await member.goto(`${server.url}/Settings`)
    await member.waitForURL((url) => /^\/login\//i.test(url.pathname), { timeout: 20_000 })
    await admin.click('.bp6-dialog button[aria-label="Close"]')
    await admin.waitForSelector(
      `[data-testid="org-members"] tr[data-member="${invited.email}"]:has-text("Disabled")`,
    )
  })

  it('lists the administration in the audit log, filtered by action', async () => {
    await admin.goto(`${server.url}/Settings`)
    await admin.waitForSelector('[data-testid="org-audit"]')
    await admin.selectOption('#org-audit-action', 'member.disabled')
    await admin.click('button:has-text("Apply filters")')
    await admin.waitForSelector('[data-testid="org-audit"] caption:has-text("1 event")')
    const row = await admin.textContent('[data-testid="org-audit"] tbody tr')
    expect(row).toContain('member.disabled')
    expect(row).toContain(server.admin.email)
    expect(row).toContain(invited.email)
  })

  it('creates a machine client whose secret is shown once and gets a token, and revoking it refuses the token', async () => {
    await admin.goto(`${server.url}/Settings`)
    const panel = '[data-testid="org-machine-clients"]'
    await admin.waitForSelector(`${panel} h3:has-text("Machine clients")`)
    await admin.fill('#org-machine-name', 'Nightly GIS export')
    await admin.click(`${panel} button:has-text("Create machine client")`)
    const clientId = (await admin.textContent('[data-testid="m2m-client-id"]')) ?? ''
    const secret = (await admin.textContent('[data-testid="m2m-client-secret"]')) ?? ''
    expect(clientId).toMatch(/^m2m-client-/)
    await admin.waitForSelector(`${panel} tr:has-text("Nightly GIS export") >> text=active`)
    const grant = () =>
      fetch(`${server.url}/v1/public/${identitySettings.projectId}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: clientId,
          client_secret: secret,
          grant_type: 'client_credentials',
        }),
      })
    const issued = await grant()
    expect(issued.status).toBe(200)
    const { access_token: token } = (await issued.json()) as { access_token: string }
    const records = `${server.url}/api/data/buildings/records?limit=1`
    expect((await fetch(records, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200)
    // Shown once: gone after Done and after a reload.
    await admin.click(`${panel} button:has-text("Done")`)
    await admin.reload()
    await admin.waitForSelector(`${panel} tr:has-text("Nightly GIS export")`)
    expect(await admin.content()).not.toContain(secret)
    await admin.click('button[aria-label="Revoke Nightly GIS export"]')
    await admin.click('.bp6-alert button:has-text("Revoke")')
    await admin.waitForSelector(`${panel} tr:has-text("Nightly GIS export") >> text=revoked`)
    expect((await fetch(records, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401)
    expect((await grant()).status).toBe(401)
  })
})
