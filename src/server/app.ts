import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyInstance } from 'fastify'
import type { SessionVerifier } from './auth/sessionVerifier'
import { declareRoutes } from './auth/routeAuth'
import sessionPlugin from './auth/sessionPlugin'
import { installErrorHandler } from './http/errorHandler'
import routeSchemas from './http/routeSchemas'
import { noQuery } from './http/schemas'
import { registerSecurityHeaders } from './security/securityHeaders'
import { serverSettings } from './appSettings'
import { dataRoutes } from './data/dataRoutes'
import { gridRoutes } from './grids/gridRoutes'
import { notFound } from './http/httpErrors'
import { defaultCatalog, type Catalog } from './store/catalog'
import type { AppStore } from './store/AppStore'
import { openStore } from './store/sqliteStore'
import type { TileCache } from './tiles/tileCache'
import { tileRoutes } from './tiles/tileRoutes'
import { createFeedPoller, feedRoutes } from './feeds/feedRoutes'
import type { FeedPollerOptions } from './feeds/FeedPoller'
import { preferencesRoutes } from './preferences'
import { identityPlugin, identitySettings } from './identity'
import { basemapPlugin } from './basemap/basemapPlugin'
import { pspsRoutes } from './operations/pspsRoutes'
import { pspsEventRoutes } from './psps-events'
import { planningRoutes } from './operations/planningRoutes'
import { mitigationRoutes } from './operations/mitigationRoutes'
import { alertsRoutes, createAlertsEngine } from './operations/alertsRoutes'
import { createAlertDelivery, deliveryPlugin } from './delivery'
import { briefingRoutes } from './briefing/briefingRoutes'
import { ogcRoutes } from './ogc/ogcRoutes'
import { tileJsonRoutes } from './ogc/tileJsonRoutes'
import { exportRoutes, type ExportRoutesOptions } from './export/exportRoutes'
import { clusterPlugin, type ClusterOptions } from './cluster/clusterPlugin'
import { sourceRoutes, type SourceRoutesOptions } from './sources/sourceRoutes'
import { fireRunRoutes } from './fire/runs/fireRunRoutes'
import { DEFAULT_FIRE_RUN_SETTINGS, type FireRunSettings } from './fire/runs/fireRunSettings'
import { windowSettings } from './grids/gridCatalog'
import { fireSimRoutes } from './fireSim/fireSimRoutes'
import { ingestRoutes, type IngestRoutesOptions } from './ingest'

declare module 'fastify' {
  interface FastifyInstance {
    /** Every store of the server, by area (typed as interfaces; only src/server/store holds SQL). */
    store: AppStore
    tileCache: TileCache
    appOptions: AppOptions
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
  store?: AppStore
  /** Built web app to serve with SPA fallback (e.g. dist/). */
  staticDir?: string
  /** Trust X-Forwarded-* from a reverse proxy (off by default: clients could spoof their IP). */
  trustProxy?: boolean
  /** Serve the web app's `*.map` source maps (off by default: they hold the whole client source). */
  sourceMaps?: boolean
  /** Poll the enabled feeds of config/feeds.yaml on their schedule (FEEDS=on; off by default). */
  feeds?: boolean | FeedPollerOptions
  /** Extra origins the page may fetch from (Content-Security-Policy connect-src), e.g. a hosted IdP. */
  connectSrc?: string[]
  /** Scheduled-work leadership and the database probe of GET /api/ready (default: sole leader, SQLite). */
  cluster?: ClusterOptions
  /** Export limits (default: config/app.yaml `exports`) and temp dir. */
  exports?: ExportRoutesOptions
  /** Other servers' sources proxied at /api/sources/<id>/ (default: xyz/wms of config/layers.yaml). */
  sources?: SourceRoutesOptions
  /** The fire consequence run: scheduled (leader) and worker loop only with `schedule` (FIRE_RUNS=on). */
  fireRuns?: { schedule?: boolean; settings?: Partial<FireRunSettings>; server?: string }
  /** The ingestion API's limits (default: config/app.yaml `ingest`) and temp dir (docs/ingest.md). */
  ingest?: IngestRoutesOptions
}

/**
 * Every spelling of a route reaches that route (and its session check): /API/Data, `//`, a
 * trailing slash and `;params` resolve like the plain path instead of falling through to the SPA.
 * (A variable, not a literal: Fastify's types do not list useSemicolonDelimiter under routerOptions yet.)
 */
const ROUTER_OPTIONS = {
  caseSensitive: false,
  ignoreTrailingSlash: true,
  ignoreDuplicateSlashes: true,
  useSemicolonDelimiter: true,
}

/** Builds the one Fastify app: data API, tiles, health/meta, static web app. No port is opened. */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const settings = serverSettings()
  const app = Fastify({
    logger: opts.logger ?? false,
    trustProxy: opts.trustProxy ?? false,
    routerOptions: ROUTER_OPTIONS,
  })
  const store = opts.store ?? openStore(opts.dataDir, opts.catalog ?? defaultCatalog())
  if (!opts.store) app.addHook('onClose', async () => store.close())
  app.decorate('store', store)
  app.decorate('appOptions', opts)

  // First, so that every answer carries them (401s from the session check included).
  registerSecurityHeaders(app, { staticDir: opts.staticDir ?? null, connectSrc: opts.connectSrc ?? [] })
  // Default deny: every route needs a session unless it declares `config: { auth: 'public' }`;
  // `config: { auth: { permission: 'resource.action' } }` also needs a role granting it.
  await app.register(sessionPlugin, {
    verifier: opts.verifier ?? null,
    cookieName: settings.cookieName,
    rbac: identitySettings.rbac,
  })
  installErrorHandler(app)
  await app.register(routeSchemas)

  const open = { config: { auth: 'public' }, schema: { querystring: noQuery } } as const
  app.get('/api/health', open, async () => ({ ok: true }))
  app.get('/api/meta', open, async () => ({ demo: opts.demo, referenceDate: settings.referenceDate }))
  // GET /api/ready for load balancers; app.leader gates the scheduled work (feeds, delivery).
  clusterPlugin(app, opts.cluster ?? {})
  await app.register(dataRoutes, {
    prefix: '/api/data',
    maxLimit: settings.maxLimit,
    defaultLimit: settings.defaultLimit,
    series: settings.series,
  })
  // Tiles log warnings and errors only: one map pan fetches hundreds (see docs/performance.md).
  await app.register(tileRoutes, {
    prefix: '/api/tiles',
    logLevel: 'warn',
    demo: opts.demo,
    ...settings.tiles,
  })

  // The one alerts engine (GET /api/alerts, alert delivery, feed updates evaluate through it).
  app.decorate('alertsEngine', createAlertsEngine(app))
  app.decorate('alertDelivery', createAlertDelivery(app))
  // Live feeds (config/feeds.yaml): polled on their schedule only with FEEDS=on.
  app.decorate('feeds', createFeedPoller(app, opts.feeds ?? false))
  // Other areas register their plugin here (one line each).
  await app.register(preferencesRoutes, {})
  await app.register(identityPlugin, {})
  await app.register(gridRoutes, { demo: opts.demo })
  await app.register(basemapPlugin)
  await app.register(pspsRoutes, {})
  await app.register(pspsEventRoutes, {})
  await app.register(planningRoutes, {})
  await app.register(mitigationRoutes, {})
  await app.register(alertsRoutes, {})
  await app.register(deliveryPlugin, {})
  await app.register(briefingRoutes, { demo: opts.demo })
  await app.register(ogcRoutes, { prefix: '/ogc' })
  await app.register(tileJsonRoutes)
  await app.register(exportRoutes, opts.exports ?? {})
  await app.register(feedRoutes)
  await app.register(sourceRoutes, opts.sources ?? {})
  await app.register(fireRunRoutes, {
    settings: { ...DEFAULT_FIRE_RUN_SETTINGS, ...opts.fireRuns?.settings },
    schedule: opts.fireRuns?.schedule ?? false,
    window: windowSettings(opts.demo),
    ...(opts.fireRuns?.server ? { server: opts.fireRuns.server } : {}),
  })
  await app.register(fireSimRoutes, { demo: opts.demo })
  await app.register(ingestRoutes, opts.ingest ?? {})

  await registerStatic(app, opts.staticDir, opts.sourceMaps ?? false)
  return app
}

async function registerStatic(
  app: FastifyInstance,
  dir: string | undefined,
  sourceMaps: boolean,
): Promise<void> {
  const root = dir ? path.resolve(dir) : null
  const index = root === null ? null : path.join(root, 'index.html')
  const hasApp = index !== null && fs.existsSync(index)
  if (root !== null && hasApp) {
    // The built web app is public (the sign-in page is part of it); its own encapsulated context,
    // so the public declaration covers these file routes only.
    await app.register(async (files) => {
      declareRoutes(files, { auth: 'public' })
      await files.register(fastifyStatic, {
        root,
        wildcard: false,
        // Source maps are the whole client source: served only when explicitly enabled.
        globIgnore: sourceMaps ? [] : ['**/*.map'],
        setHeaders: (res, file) => {
          const immutable = file.includes(`${path.sep}assets${path.sep}`)
          res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
        },
      })
    })
  }
  // Unknown paths: the SPA's index.html for page routes, JSON 404 for the API. Neither holds data,
  // so the not-found handler needs no session.
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? ''
    const decoded = decodedPath(url)
    const api = /^\/+(api|sdk)(\/|$)/i.test(decoded)
    // Page routes have no file extension; a missing file (a source map, an old asset) is a 404.
    const file = /\.[a-z0-9]+$/i.test(decoded)
    if (
      index !== null &&
      hasApp &&
      !api &&
      !file &&
      (request.method === 'GET' || request.method === 'HEAD')
    ) {
      const html = await fs.promises.readFile(index)
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(html)
    }
    return notFound(reply, `no route for ${request.method} ${url}`)
  })
}

/** The path percent-decoded (as the router sees it); the raw path when it does not decode. */
function decodedPath(url: string): string {
  try {
    return decodeURIComponent(url)
  } catch {
    return url
  }
}
