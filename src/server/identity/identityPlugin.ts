import type { FastifyInstance } from 'fastify'
import type { SessionVerifier } from '../auth/sessionVerifier'
import sessionPlugin from '../auth/sessionPlugin'
import { serverSettings } from '../appSettings'
import { installErrorHandler } from '../http/errorHandler'
import { notFound } from '../http/httpErrors'
import { createIdentity, type Identity } from './createIdentity'
import { identitySettings } from './settings'
import { meRoutes } from './meRoutes'
import { adminRoutes } from '../members/adminRoutes'
import { sdkRoutes } from './sdkRoutes'
import { machineRoutes, machineVerifier } from './machineRoutes'

export interface IdentityPluginOptions {
  /** Built by createIdentity(); by default over `app.store` (members, tokens) and `app.appOptions.dataDir`. */
  identity?: Identity
  /**
   * The verifier of the session plugin this plugin registers when the app has none (a bare
   * Fastify in tests); inside buildApp the app's session plugin guards /api/me.
   */
  verifier?: SessionVerifier
}

/**
 * The identity provider: the Stytch SDK endpoints under /sdk/v1, the JWKS at
 * /.well-known/jwks.json and /v1/b2b/sessions/jwks/<project_id> (where Stytch's server
 * libraries look), and the member's own account routes under /api/me. Registered from
 * buildApp, it also hands its verifier to the session plugin.
 */
export async function identityPlugin(app: FastifyInstance, opts: IdentityPluginOptions) {
  const identity = opts.identity ?? (await createIdentity({ db: app.store, dataDir: app.appOptions.dataDir }))
  // Inside buildApp without a verifier of its own (npm start): the bundled provider's checks sessions.
  if (!opts.identity && !app.appOptions.verifier) app.sessionAuth.setVerifier(identity.verifier)
  const { ctx } = identity
  // Machine clients' access tokens (M2M) are the bundled provider's: accepted on routes that name a scope.
  if (ctx && app.hasDecorator('sessionAuth') && !app.appOptions.verifier)
    app.sessionAuth.setMachineVerifier(machineVerifier(ctx))
  // Outside buildApp (a bare Fastify): the same session plugin, for this plugin's routes only.
  if (!app.hasDecorator('sessionAuth')) {
    await app.register(sessionPlugin, {
      verifier: opts.verifier ?? identity.verifier,
      cookieName: serverSettings().cookieName,
      rbac: identity.ctx?.settings.rbac ?? identitySettings.rbac,
    })
    installErrorHandler(app)
  }
  if (ctx) {
    // Before the stores close (onClose): let e-mails handed off without waiting finish and audit
    // (at most 2 s: a gateway that never answers must not hold the shutdown).
    app.addHook('preClose', () => ctx.settle(2_000))
    await app.register(sdkRoutes, { prefix: '/sdk/v1', ctx })
    await app.register(machineRoutes, { ctx })
    const cache = { 'cache-control': 'public, max-age=300' }
    const open = { config: { auth: 'public' } } as const
    app.get('/.well-known/jwks.json', open, async (_request, reply) =>
      reply.headers(cache).send(ctx.key.jwks),
    )
    app.get<{ Params: { projectId: string } }>(
      '/v1/b2b/sessions/jwks/:projectId',
      open,
      async (request, reply) => {
        if (request.params.projectId !== ctx.settings.projectId) {
          return notFound(reply, 'Unknown project.')
        }
        return reply.headers(cache).send(ctx.key.jwks)
      },
    )
  }
  await app.register(meRoutes, { ctx })
  await app.register(adminRoutes, { ctx })
}
