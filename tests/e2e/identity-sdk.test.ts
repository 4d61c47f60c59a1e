// The real Stytch B2B headless SDK (pinned @stytch/vanilla-js) in headless Chromium against the
// running server's bundled identity provider: password → SMS code from the outbox → session →
// refresh → revoke, plus the reset flow with PKCE. It fails if an SDK upgrade changes the protocol.
import { resolve } from 'node:path'
import type { createStytchB2BClient } from '@stytch/vanilla-js/b2b/headless'
import { build } from 'esbuild'
import { SignJWT, decodeProtectedHeader, generateKeyPair } from 'jose'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appConfig } from '../../src/shared/config'
import { launchBrowser, newPage, readOutbox, startServer, waitForOutbox, type TestServer } from './support'

type Client = ReturnType<typeof createStytchB2BClient>
type SdkWindow = Window & { client: Client; lastError: unknown }

const { organizationId: org, publicToken } = appConfig.identity
const records = '/api/data/buildings/records?limit=1'
const tile = '/api/tiles/buildings/mvt/5/6/12'

let server: TestServer
let browser: Browser
let sdkBundle: string

/** A page on the server's own origin that loads the SDK and creates the client as the app does. */
async function sdkPage(): Promise<Page> {
  const page = await newPage(browser)
  const base = `${server.url}/__identity-sdk-test`
  await page.route(`${base}/sdk.js`, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: sdkBundle }),
  )
  await page.route(`${base}/`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><head><script src="${base}/sdk.js"></script><script>
        window.client = window.createStytchB2BClient(${JSON.stringify(publicToken)},
          { endpoints: { testAPIURL: location.origin, liveAPIURL: location.origin } })
      </script></head><body>sdk test</body></html>`,
    }),
  )
  await page.goto(`${base}/`)
  await page.waitForFunction(() => 'client' in window)
  return page
}

async function status(url: string, token: string): Promise<number> {
  return (await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${token}` } })).status
}

/** Password then SMS through the SDK in the page; returns the tokens and session the SDK stored. */
async function signIn(page: Page, password = server.admin.password) {
  const mfa = await page.evaluate(
    async ({ org, email, password }) => {
      const r = await (window as unknown as SdkWindow).client.passwords.authenticate({
        organization_id: org,
        email_address: email,
        password,
        session_duration_minutes: 1440,
      })
      return {
        session: r.member_session,
        memberId: r.member_id,
        ist: r.intermediate_session_token,
        cookie: document.cookie,
      }
    },
    { org, email: server.admin.email, password },
  )
  expect(mfa.session).toBeNull()
  expect(mfa.cookie).toContain(`${appConfig.identity.cookies.intermediateSession}=`)
  return smsStep(page, mfa.memberId)
}

/** Sends the SMS code, reads it from the outbox and completes sign-in with the stored IST. */
async function smsStep(page: Page, memberId: string) {
  const before = readOutbox(server.dataDir, 'sms').length
  await page.evaluate(
    async ({ org, memberId }) =>
      (window as unknown as SdkWindow).client.otps.sms.send({ organization_id: org, member_id: memberId }),
    { org, memberId },
  )
  const sms = await waitForOutbox(server.dataDir, 'sms', { after: before, to: server.admin.phone })
  return page.evaluate(
    async ({ org, memberId, code }) => {
      const { client } = window as unknown as SdkWindow
      const r = await client.otps.sms.authenticate({
        organization_id: org,
        member_id: memberId,
        code,
        session_duration_minutes: 1440,
      })
      return {
        sessionId: r.member_session.member_session_id,
        expiresAt: r.member_session.expires_at,
        roles: r.member_session.roles,
        tokens: client.session.getTokens(),
        cached: client.session.getSync()?.member_session_id ?? null,
        cookie: document.cookie,
      }
    },
    { org, memberId, code: sms.code },
  )
}

beforeAll(async () => {
  const out = await build({
    stdin: {
      contents:
        "import { createStytchB2BClient } from '@stytch/vanilla-js/b2b/headless'\nObject.assign(window, { createStytchB2BClient })",
      resolveDir: resolve(import.meta.dirname, '../..'),
      loader: 'js',
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
  })
  sdkBundle = out.outputFiles[0]?.text ?? ''
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('the Stytch SDK against the bundled identity provider', () => {
  it('reports a wrong password as a StytchAPIError with unauthorized_credentials', async () => {
    const page = await sdkPage()
    const error = await page.evaluate(
      async ({ org, email }) => {
        try {
          await (window as unknown as SdkWindow).client.passwords.authenticate({
            organization_id: org,
            email_address: email,
            password: 'not the password',
            session_duration_minutes: 1440,
          })
          return null
        } catch (e) {
          const err = e as { name: string; error_type: string; status_code: number }
          return { name: err.name, type: err.error_type, status: err.status_code }
        }
      },
      { org, email: server.admin.email },
    )
    expect(error).toEqual({ name: 'StytchAPIError', type: 'unauthorized_credentials', status: 401 })
    await page.context().close()
  })

  it('signs in with password and SMS code, refreshes, and revokes', async () => {
    const page = await sdkPage()
    const session = await signIn(page)
    expect(session.cached).toBe(session.sessionId)
    expect(session.roles).toContain('stytch_member')
    expect(session.cookie).toContain(`${appConfig.identity.cookies.session}=`)
    expect(session.cookie).not.toContain(`${appConfig.identity.cookies.intermediateSession}=`)
    const token = session.tokens?.session_token ?? ''
    const jwt = session.tokens?.session_jwt ?? ''
    expect(decodeProtectedHeader(jwt).alg).toBe('RS256')

    // The data API takes the opaque token or the JWT; tiles also take the SDK's cookie.
    expect(await status(records, token)).toBe(200)
    expect(await status(records, jwt)).toBe(200)
    const tileStatus = await page.evaluate(async (url) => (await fetch(url)).status, tile)
    expect([200, 204]).toContain(tileStatus)

    // Refresh (what the SDK does every 3 minutes), keeping the session id; a duration extends it.
    const refreshed = await page.evaluate(async () => {
      const r = await (window as unknown as SdkWindow).client.session.authenticate({
        session_duration_minutes: 30,
      })
      return { id: r.member_session.member_session_id, expiresAt: r.member_session.expires_at }
    })
    expect(refreshed.id).toBe(session.sessionId)
    expect(Date.parse(refreshed.expiresAt)).toBeLessThan(Date.parse(session.expiresAt))

    const after = await page.evaluate(async () => {
      const { client } = window as unknown as SdkWindow
      await client.session.revoke()
      return { cached: client.session.getSync(), cookie: document.cookie }
    })
    expect(after.cached).toBeNull()
    expect(after.cookie).not.toContain(`${appConfig.identity.cookies.session}=`)
    expect(await status(records, token)).toBe(401)
    expect(await status(records, jwt)).toBe(401)
    await page.context().close()
  })

  it('refuses the data API without a token and with a forged JWT', async () => {
    expect((await fetch(`${server.url}${records}`)).status).toBe(401)
    const page = await sdkPage()
    const session = await signIn(page)
    const real = session.tokens?.session_jwt ?? ''
    const { privateKey } = await generateKeyPair('RS256')
    const payload = JSON.parse(Buffer.from(real.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >
    const forged = await new SignJWT(payload)
      .setProtectedHeader(decodeProtectedHeader(real) as { alg: 'RS256' })
      .sign(privateKey)
    expect(await status(records, forged)).toBe(401)
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${real.split('.')[1]}.`
    expect(await status(records, unsigned)).toBe(401)
    expect(await status(records, real)).toBe(200)
    await page.context().close()
  })

  it('resets the password from the e-mailed link (PKCE in the same browser), then needs the SMS step', async () => {
    const page = await sdkPage()
    const before = readOutbox(server.dataDir, 'email').length
    await page.evaluate(
      async ({ org, email, origin, path }) =>
        (window as unknown as SdkWindow).client.passwords.resetByEmailStart({
          organization_id: org,
          email_address: email,
          reset_password_redirect_url: `${origin}${path}`,
        }),
      { org, email: server.admin.email, origin: server.url, path: appConfig.identity.resetPath },
    )
    const mail = await waitForOutbox(server.dataDir, 'email', { after: before, to: server.admin.email })
    const link = new URL(mail.link)
    expect(`${link.origin}${link.pathname}`).toBe(`${server.url}${appConfig.identity.resetPath}`)
    expect(link.searchParams.get('stytch_token_type')).toBe('multi_tenant_passwords')
    expect(link.searchParams.get('token')).toBe(mail.token)

    const newPassword = 'A-brand-new-passphrase-42'
    // Another browser profile has no PKCE verifier for this reset, so the link fails there.
    const other = await sdkPage()
    const elsewhere = await other.evaluate(async (token) => {
      try {
        await (window as unknown as SdkWindow).client.passwords.resetByEmail({
          password_reset_token: token,
          password: 'Some-other-passphrase-9',
          session_duration_minutes: 60,
        })
        return null
      } catch (e) {
        return (e as { error_type: string }).error_type
      }
    }, mail.token)
    expect(elsewhere).toBe('pkce_mismatch')
    await other.context().close()
    const reset = await page.evaluate(
      async ({ token, password }) => {
        const r = await (window as unknown as SdkWindow).client.passwords.resetByEmail({
          password_reset_token: token,
          password,
          session_duration_minutes: 60,
        })
        return {
          session: r.member_session,
          ist: Boolean(r.intermediate_session_token),
          memberId: r.member_id,
        }
      },
      { token: mail.token, password: newPassword },
    )
    expect(reset).toMatchObject({ session: null, ist: true })
    // The SMS step completes the reset; the session lasts the reset length (60 minutes), not 1440.
    const session = await smsStep(page, reset.memberId)
    expect(Date.parse(session.expiresAt) - Date.now()).toBeLessThanOrEqual(
      appConfig.session.resetMinutes * 60_000,
    )
    server.admin.password = newPassword
    // The link is single use.
    const reused = await page.evaluate(async (token) => {
      try {
        await (window as unknown as SdkWindow).client.passwords.resetByEmail({
          password_reset_token: token,
          password: 'Yet-another-passphrase-7',
          session_duration_minutes: 60,
        })
        return null
      } catch (e) {
        return (e as { error_type: string }).error_type
      }
    }, mail.token)
    expect(reused).toBe('unable_to_auth_password_reset_token')
    await page.context().close()
  })
})
