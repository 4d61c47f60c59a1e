import type { Page, Route } from 'playwright-core'
import { appConfig } from '../../src/shared/config'
import { describe, expect, it } from 'vitest'
import { loginSelectors, newPage, submitPassword, sharedServerAndBrowser } from './support'

// Sign-in with the identity provider down (issue #29 item 5; spec §8: 'Unable to contact our
// servers.'). The real SDK makes its calls; Playwright cuts one of them off on its way to the
// bundled provider: a network failure, a proxy's HTML 502, or the provider's own JSON 500.
const suite = sharedServerAndBrowser()

const unreachable = 'Unable to contact our servers.'

const outages: Record<string, (route: Route) => Promise<void>> = {
  'network failure': (route) => route.abort('internetdisconnected'),
  'HTML 502 from a proxy': (route) =>
    route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>Bad Gateway</body></html>' }),
  'JSON 500 from the provider': (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({
        status_code: 500,
        request_id: 'request-id-test-500',
        error_type: 'internal_server_error',
        error_message: 'The identity provider failed.',
        error_url: '',
      }),
    }),
}

async function errorText(page: Page): Promise<string> {
  const error = page.locator(loginSelectors.error)
  await error.waitFor({ timeout: 20_000 })
  return (await error.textContent())?.trim() ?? ''
}

describe.each(Object.entries(outages))('sign-in with the identity provider down: %s', (_, cutOff) => {
  it(`says '${unreachable}' at the password step, and the password is kept for a retry`, async () => {
    const page = await newPage(suite.browser)
    await page.route('**/sdk/v1/b2b/passwords/authenticate', cutOff)
    await submitPassword(page, suite.server)
    expect(await errorText(page)).toBe(unreachable)
    expect(await page.inputValue(loginSelectors.password)).toBe(suite.server.admin.password)
    expect(new URL(page.url()).pathname).toBe('/login/Authenticate')
    // The sign-in card says what the product is (brand.tagline).
    expect(await page.textContent('[data-testid="auth-tagline"]')).toBe(appConfig.brand.tagline)
    await page.context().close()
  })

  it(`says '${unreachable}' at the SMS-code step`, async () => {
    const page = await newPage(suite.browser)
    await page.route('**/sdk/v1/b2b/otps/sms/authenticate', cutOff)
    await submitPassword(page, suite.server)
    await page.waitForSelector(loginSelectors.code, { timeout: 20_000 })
    await page.fill(loginSelectors.code, '123456')
    await page.click(loginSelectors.submit)
    expect(await errorText(page)).toBe(unreachable)
    await page.context().close()
  })
})
