import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import Fastify from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { ACCOUNTS_MIGRATIONS_DIR } from '../store/accountsDb'
import { migrate } from '../store/migrate'
import { createBundledVerifier } from './bundledVerifier'
import { createIdentityContext, type IdentityContext } from './context'
import type { Delivery, EmailMessage } from './delivery'
import { identityPlugin } from './identityPlugin'
import { pkceChallenge } from './crypto'
import { createMember } from './memberAdmin'
import { resetStart } from './passwordFlows'
import { identitySettings } from './settings'

// A reset e-mail is handed to delivery without waiting for it. Shutting the server down while
// one is still on its way must wait for it (and its audit line), and must never leave an
// unhandled rejection behind — which would end a Node process.

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

/** A delivery whose e-mails arrive only when the test says so. */
function heldDelivery() {
  const held: { message: EmailMessage; release(): void }[] = []
  const delivery: Delivery = {
    sms: async () => {},
    email: (message) => new Promise<void>((resolve) => held.push({ message, release: resolve })),
  }
  return { delivery, held }
}

async function setUp(delivery: Delivery) {
  const db = new Database(':memory:')
  migrate(db, ACCOUNTS_MIGRATIONS_DIR)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-background-'))
  dirs.push(dataDir)
  const ctx = await createIdentityContext({ db, dataDir, env: {}, delivery, print: () => {} })
  await createMember(
    ctx.members,
    identitySettings,
    {
      email: 'ops@emberline.test',
      name: 'Ops',
      phone: '+15055550199',
      password: 'x-Long-Passw0rd!',
      roles: [],
    },
    Date.now(),
  )
  return { db, ctx }
}

/** A Fastify app with only the identity plugin over `ctx`. */
async function identityApp(ctx: IdentityContext) {
  const app = Fastify({ logger: false })
  await app.register(identityPlugin, {
    identity: { ctx, verifier: createBundledVerifier(ctx), mode: 'bundled' },
  })
  await app.ready()
  return app
}

const request = {
  organizationId: identitySettings.organizationId,
  email: 'ops@emberline.test',
  redirectUrl: null,
  expirationMinutes: null,
  codeChallenge: pkceChallenge('ab'.repeat(64)),
}

describe('background e-mail delivery', () => {
  it('is waited for when the app closes, so its audit line is written before the store closes', async () => {
    const { delivery, held } = heldDelivery()
    const { db, ctx } = await setUp(delivery)
    const app = await identityApp(ctx)
    await resetStart(ctx, request, 'http://127.0.0.1:8080', '127.0.0.1')
    expect(held).toHaveLength(1)
    const closing = app.close()
    setTimeout(() => held[0]?.release(), 20)
    await closing
    expect((await ctx.members.auditLog()).map((e) => e.event)).toContain('reset.sent')
    db.close()
  })

  it('holds a shutdown at most 2 s when the gateway never answers', async () => {
    const { delivery } = heldDelivery()
    const { db, ctx } = await setUp(delivery)
    const app = await identityApp(ctx)
    await resetStart(ctx, request, 'http://127.0.0.1:8080', '127.0.0.1')
    const started = Date.now()
    await app.close()
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900)
    db.close()
  })

  it('never becomes an unhandled rejection, even when its audit fails on a closed store', async () => {
    const { delivery, held } = heldDelivery()
    const { db, ctx } = await setUp(delivery)
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    try {
      await resetStart(ctx, request, 'http://127.0.0.1:8080', '127.0.0.1')
      db.close()
      held[0]?.release()
      await ctx.settle()
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
  })
})
