import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  launchBrowser,
  loginSelectors,
  newPage,
  outboxCount,
  signIn,
  signOut,
  startServer,
  submitPassword,
  waitForOutbox,
  type TestServer,
} from './support'

// Sign-in through the real Stytch SDK against the bundled identity provider. Its own server:
// these tests fail logins on purpose and change the admin's password.
let server: TestServer
let browser: Browser

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function errorText(page: Page): Promise<string> {
  const error = page.locator(loginSelectors.error)
  await error.waitFor({ timeout: 20_000 })
  return (await error.textContent())?.trim() ?? ''
}

describe('sign-in', () => {
  it('signs in with password and the SMS code from the outbox, and sets the SDK cookies', async () => {
    const page = await newPage(browser)
    await signIn(page, server)
    expect(new URL(page.url()).pathname).toBe('/dailywildfirerisk')
    const cookies = await page.context().cookies()
    const session = cookies.find((c) => c.name === 'stytch_session')
    expect(session?.sameSite).toBe('Lax')
    expect(cookies.some((c) => c.name === 'stytch_session_jwt')).toBe(true)
    expect(cookies.some((c) => c.name === 'stytch_intermediate_session_token')).toBe(false)
    await signOut(page)
    expect((await page.context().cookies()).some((c) => c.name === 'stytch_session')).toBe(false)
    await page.context().close()
  })

  it("says 'Invalid username or password' for a wrong password", async () => {
    const page = await newPage(browser)
    await submitPassword(page, server, { password: 'not-the-password' })
    expect(await errorText(page)).toBe('Invalid username or password')
    await page.context().close()
  })

  it("says 'Invalid SMS code' for a wrong code", async () => {
    const page = await newPage(browser)
    await submitPassword(page, server)
    await page.waitForSelector(loginSelectors.code)
    await page.fill(loginSelectors.code, '000000')
    await page.click(loginSelectors.submit)
    expect(await errorText(page)).toBe('Invalid SMS code')
    await page.context().close()
  })

  it("says 'Failed to send SMS code' when the resend fails, and a resend delivers a new code", async () => {
    const page = await newPage(browser)
    // Count before the password step: the code field shows while the first code is still being
    // sent, so counting after it could take that first code for the resent one.
    const atStart = outboxCount(server.dataDir, 'sms', server.admin.phone)
    await submitPassword(page, server)
    await page.waitForSelector(loginSelectors.code)
    await waitForOutbox(server.dataDir, 'sms', { after: atStart, to: server.admin.phone })
    const before = outboxCount(server.dataDir, 'sms', server.admin.phone)
    await page.click(loginSelectors.resend)
    const resent = await waitForOutbox(server.dataDir, 'sms', { after: before, to: server.admin.phone })
    // The SMS gateway goes down: the provider's send call fails.
    await page.route('**/sdk/v1/b2b/otps/sms/send', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          status_code: 503,
          request_id: 'request-id-test',
          error_type: 'sms_gateway_unavailable',
          error_message: 'SMS gateway unavailable.',
          error_url: 'https://stytch.com/docs/api/errors/503',
        }),
      }),
    )
    await page.click(loginSelectors.resend)
    expect(await errorText(page)).toBe('Failed to send SMS code')
    await page.unroute('**/sdk/v1/b2b/otps/sms/send')
    await page.fill(loginSelectors.code, resent.code)
    await page.click(loginSelectors.submit)
    await page.waitForURL((url) => url.pathname === '/dailywildfirerisk')
    await page.context().close()
  })
})

describe('password reset', () => {
  it("says 'Invalid password reset token' for a bad token", async () => {
    const page = await newPage(browser)
    await page.goto(`${server.url}/login/Reset?stytch_token_type=multi_tenant_passwords&token=bogus`)
    await page.fill(loginSelectors.newPassword, 'A-brand-new-Passw0rd!')
    await page.click(loginSelectors.submit)
    expect(await errorText(page)).toBe('Invalid password reset token')
    await page.context().close()
  })

  it("'Forgot password?' e-mails a link that sets a new password", async () => {
    const page = await newPage(browser)
    await page.goto(`${server.url}/login/Authenticate`)
    await page.fill(loginSelectors.email, server.admin.email)
    const before = outboxCount(server.dataDir, 'email')
    await page.click(loginSelectors.forgot)
    await page.waitForSelector('[role="status"]')
    const mail = await waitForOutbox(server.dataDir, 'email', { after: before })
    expect(mail.to).toBe(server.admin.email)
    expect(new URL(mail.link).pathname.toLowerCase()).toBe('/login/reset')

    const smsBefore = outboxCount(server.dataDir, 'sms', server.admin.phone)
    await page.goto(mail.link)
    const newPassword = 'Reset-by-e2e-Passw0rd!'
    await page.fill(loginSelectors.newPassword, newPassword)
    await page.click(loginSelectors.submit)
    // The provider may ask for the SMS code after a reset (MFA); finish it if so.
    const next = await Promise.race([
      page.waitForSelector(loginSelectors.code, { timeout: 20_000 }).then(() => 'code' as const),
      page
        .waitForURL((url) => url.pathname === '/dailywildfirerisk', { timeout: 20_000 })
        .then(() => 'done' as const),
    ])
    if (next === 'code') {
      const sms = await waitForOutbox(server.dataDir, 'sms', { after: smsBefore, to: server.admin.phone })
      await page.fill(loginSelectors.code, sms.code)
      await page.click(loginSelectors.submit)
      await page.waitForURL((url) => url.pathname === '/dailywildfirerisk')
    }
    await signOut(page)
    server.admin.password = newPassword
    await signIn(page, server)
    expect(new URL(page.url()).pathname).toBe('/dailywildfirerisk')
    await page.context().close()
  })
})
