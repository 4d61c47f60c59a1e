import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'
import type { SessionVerifier, VerifiedSession } from './auth/sessionVerifier'
import { serverSettings } from './appSettings'
import { dataRoutes } from './data/dataRoutes'
import { gridRoutes } from './grids/gridRoutes'
import { badRequest, notFound } from './data/httpErrors'
import { installSessionAuth, type SessionAuth } from './data/sessionAuth'
import { defaultCatalog, type Catalog } from './store/catalog'
import { openStore, type SqliteStore } from './store/sqliteStore'
import type { TileCache } from './tiles/tileCache'
import { tileRoutes } from './tiles/tileRoutes'
import { preferencesRoutes } from './preferences'
import { identityPlugin } from './identity'
import { basemapPlugin } from './basemap/basemapPlugin'
import { pspsRoutes } from './operations/pspsRoutes'
import { planningRoutes } from './operations/planningRoutes'
import { mitigationRoutes } from './operations/mitigationRoutes'
import { alertsRoutes } from './operations/alertsRoutes'

declare module 'fastify' {
  interface FastifyInstance {
    /** The feature store (SQLite handle at `store.db` for other areas' store modules). */
    store: SqliteStore
    /** Set the session verifier here (identity plugin) unless AppOptions.verifier was given. */
    sessionAuth: SessionAuth
    tileCache: TileCache
    appOptions: AppOptions
  }
  interface FastifyRequest {
    /** The verified session of requests under /api/data and /api/tiles (null elsewhere). */
    session: VerifiedSession | null
  }
}

export interface AppOptions {
  dataDir: string
  demo: boolean
  logger?: boolean | object
  /** Session check of the data and tile routes; the identity plugin provides the default. */
  verifier?: SessionVerifier
  /** Datasets, tables and sources (defaults to the compiled config). */
  catalog?: Catalog
  /** An already open store (otherwise opened in dataDir and closed with the app). */
  store?: SqliteStore
  /** Built web app to serve with SPA fallback (e.g. dist/). */
  staticDir?: string
  /** Trust X-Forwarded-* from a reverse proxy (off by default: clients could spoof their IP). */
  trustProxy?: boolean
}

/** Builds the one Fastify app: data API, tiles, health/meta, static web app. No port is opened. */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const settings = serverSettings()
  const app = Fastify({ logger: opts.logger ?? false, trustProxy: opts.trustProxy ?? false })
  const store = opts.store ?? openStore(opts.dataDir, opts.catalog ?? defaultCatalog())
  if (!opts.store) app.addHook('onClose', async () => store.close())
  app.decorate('store', store)
  app.decorate('appOptions', opts)

  installSessionAuth(app, opts.verifier ?? null, {
    bearerPrefixes: ['/api/data/', '/api/tiles/'],
    cookiePrefixes: ['/api/tiles/'],
    cookieName: settings.cookieName,
  })

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      const first = error.validation[0]
      const missing = (first?.params as { missingProperty?: unknown } | undefined)?.missingProperty
      const fromPath = first?.instancePath.replace(/^\//, '').split('/')[0]
      const parameter =
        fromPath || (typeof missing === 'string' ? missing : '') || error.validationContext || 'request'
      return badRequest(reply, parameter, `${parameter} ${first?.message ?? error.message}`)
    }
    if (error.statusCode !== undefined && error.statusCode < 500) {
      return reply
        .code(error.statusCode)
        .send({ error: 'bad_request', parameter: 'body', message: error.message })
    }
    request.log.error(error)
    return reply.code(500).send({ error: 'internal', message: 'internal server error' })
  })

  app.get('/api/health', async () => ({ ok: true }))
  app.get('/api/meta', async () => ({ demo: opts.demo, referenceDate: settings.referenceDate }))
  await app.register(dataRoutes, {
    prefix: '/api/data',
    maxLimit: settings.maxLimit,
    defaultLimit: settings.defaultLimit,
    series: settings.series,
  })
  await app.register(tileRoutes, { prefix: '/api/tiles', demo: opts.demo, ...settings.tiles })

  // Other areas register their plugin here (one line each).
  await app.register(preferencesRoutes, {})
  await app.register(identityPlugin, {})
  await app.register(gridRoutes, { demo: opts.demo })
  await app.register(basemapPlugin)
  await app.register(pspsRoutes, {})
  await app.register(planningRoutes, {})
  await app.register(mitigationRoutes, {})
  await app.register(alertsRoutes, {})

  await registerStatic(app, opts.staticDir)
  return app
}

async function registerStatic(app: FastifyInstance, dir: string | undefined): Promise<void> {
  const root = dir ? path.resolve(dir) : null
  const hasApp = root !== null && fs.existsSync(path.join(root, 'index.html'))
  if (hasApp) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      setHeaders: (res, file) => {
        const immutable = file.includes(`${path.sep}assets${path.sep}`)
        res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      },
    })
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? ''
    const api = url.startsWith('/api/') || url.startsWith('/sdk/')
    if (hasApp && !api && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html')
    }
    return notFound(reply, `no route for ${request.method} ${url}`)
  })
}
