import type { Page } from 'playwright-core'
import { outboxCount, waitForOutbox } from './outbox'
import type { TestServer } from './startServer'

/** Selectors of the sign-in screens (src/features/auth); tests use these, not their own. */
export const loginSelectors = {
  email: 'input[name="email"]',
  password: 'input[name="password"]',
  code: 'input[name="code"]',
  newPassword: 'input[name="newPassword"]',
  submit: 'form button[type="submit"]',
  error: '[data-testid="auth-error"]',
  resend: 'button:has-text("Resend code")',
  forgot: 'button:has-text("Forgot password?")',
} as const

export interface SignInOptions {
  email?: string
  password?: string
  /** Page to open first (a protected path redirects to the login route); default the login route. */
  path?: string
  /** Skip opening a page: the login form is already shown. */
  alreadyOnLogin?: boolean
}

/** Fills e-mail and password and submits; resolves when the SMS code step is shown. */
export async function submitPassword(
  page: Page,
  server: TestServer,
  options: SignInOptions = {},
): Promise<void> {
  if (!options.alreadyOnLogin) await page.goto(`${server.url}${options.path ?? '/login/Authenticate'}`)
  await page.fill(loginSelectors.email, options.email ?? server.admin.email)
  await page.fill(loginSelectors.password, options.password ?? server.admin.password)
  await page.click(loginSelectors.submit)
}

/**
 * Signs in through the real UI: e-mail + password, then the SMS code read from the server's
 * outbox. Resolves once the app has left the login route.
 */
export async function signIn(page: Page, server: TestServer, options: SignInOptions = {}): Promise<void> {
  const phone = server.admin.phone
  const before = outboxCount(server.dataDir, 'sms', options.email ? undefined : phone)
  await submitPassword(page, server, options)
  await page.waitForSelector(loginSelectors.code, { timeout: 20_000 })
  const sms = await waitForOutbox(server.dataDir, 'sms', {
    after: before,
    to: options.email ? undefined : phone,
  })
  await page.fill(loginSelectors.code, sms.code)
  await page.click(loginSelectors.submit)
  await page.waitForURL((url) => !/^\/login\//i.test(url.pathname), { timeout: 20_000 })
}

/** Signs out through the top bar's 'More options' menu. */
export async function signOut(page: Page): Promise<void> {
  await page.click('button[aria-label="More options"]')
  await page.click('.bp6-menu-item:has-text("Logout")')
  await page.waitForURL((url) => /^\/login\//i.test(url.pathname), { timeout: 20_000 })
}
