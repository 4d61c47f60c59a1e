import type { FastifyInstance } from 'fastify'
import { layersConfig, type LayersConfig } from '../../shared/config'
import { WIND_U_GRID } from '../grids/windGrid'
import type { FeedStatus } from '../store/feedStore'
import { FeedPoller, type FeedPollerOptions } from './FeedPoller'

declare module 'fastify' {
  interface FastifyInstance {
    /** The feed poller (config/feeds.yaml): polls on its schedule only when the app runs with FEEDS=on. */
    feeds: FeedPoller
  }
}

/**
 * The app's feed poller, stopped with the app; it polls on its schedule once the app is ready when
 * `poll` is set (main.ts: FEEDS=on) and while this server leads the scheduled work (`app.leader`),
 * otherwise feeds run only when asked (`app.feeds.run`).
 */
export function createFeedPoller(app: FastifyInstance, poll: boolean | FeedPollerOptions): FeedPoller {
  const poller = new FeedPoller(app, { ...(typeof poll === 'object' ? poll : {}), enabled: poll !== false })
  // Scheduled work: polls only on the leader of the cluster (on SQLite the one process leads).
  let stopPolling = () => undefined as void
  app.addHook('onReady', async () => {
    stopPolling = app.leader.whileLeader(() => {
      poller.start()
      return () => poller.stop()
    })
  })
  app.addHook('onClose', async () => {
    stopPolling()
    poller.stop()
  })
  return poller
}

/** Sidebar layers drawing each dataset (layer → map layers → sources → dataset). */
export function layersByDataset(layers: LayersConfig): Map<string, string[]> {
  const datasetOfSource = new Map(layers.sources.map((s) => [s.id, 'dataset' in s ? s.dataset : undefined]))
  const sourceOfMapLayer = new Map(layers.mapLayers.map((m) => [m.id, m.source]))
  const out = new Map<string, string[]>()
  for (const layer of layers.layers) {
    const datasets = new Set(layer.layers.map((m) => datasetOfSource.get(sourceOfMapLayer.get(m) ?? '')))
    for (const d of datasets) if (d) out.set(d, [...(out.get(d) ?? []), layer.id])
  }
  return out
}

/**
 * Sidebar layers drawing each grid (layer → map layers → png sources → grid); `wind` for the
 * layers drawing the wind particle field (a `type: wind` source).
 */
export function layersByGrid(layers: LayersConfig): Map<string, string[]> {
  const gridOfSource = new Map(
    layers.sources.map((s) => [s.id, s.type === 'wind' ? 'wind' : 'grid' in s ? s.grid : undefined]),
  )
  const sourceOfMapLayer = new Map(layers.mapLayers.map((m) => [m.id, m.source]))
  const out = new Map<string, string[]>()
  for (const layer of layers.layers) {
    const grids = new Set(layer.layers.map((m) => gridOfSource.get(sourceOfMapLayer.get(m) ?? '')))
    for (const g of grids) if (g) out.set(g, [...(out.get(g) ?? []), layer.id])
  }
  return out
}

/** One feed as GET /api/feeds lists it. */
export interface FeedInfo {
  id: string
  title: string
  /** The dataset written; for a grid feed the grid (wind_u for `grid: wind`). */
  dataset: string
  /** 'vector' (feeds) or 'grid' (gridFeeds). */
  kind: 'vector' | 'grid'
  /** Grid feeds: the grid as configured (`wind` for the particle field). */
  grid?: string
  /** Sidebar layers that draw the dataset (they show the freshness badge). */
  layers: string[]
  format: string
  mode: string
  everyMinutes: number
  enabled: boolean
  source: string | null
  lastAttemptAt: string | null
  lastSuccessAt: string | null
  newestDataAt: string | null
  lastError: string | null
  lastErrorAt: string | null
  failures: number
  /** never (no run yet), ok, stale (last success older than twice the schedule), error (last run failed). */
  state: 'never' | 'ok' | 'stale' | 'error'
  summary: unknown
}

/**
 * GET /api/feeds (session required, as every route not declared public): every feed of
 * config/feeds.yaml by id, with its dataset, the layers showing it, and its freshness — last
 * attempt, last success, newest timestamp in the data, last error and the last run's counts
 * (rejections with their line or feature numbers) — and `versions`, every dataset's version, which
 * open attribute tables watch to refetch their page when a feed run or an import changed it.
 */
export async function feedRoutes(app: FastifyInstance): Promise<void> {
  const poller = app.feeds
  const store = app.store.feeds
  const layersOf = layersByDataset(layersConfig)
  const layersOfGrid = layersByGrid(layersConfig)

  app.get(
    '/api/feeds',
    { schema: { querystring: { type: 'object', additionalProperties: true } } },
    async () => {
      const now = poller.clock()
      const status = new Map((await store.allStatus()).map((s) => [s.feed, s]))
      const stateOf = (s: FeedStatus | undefined, everyMinutes: number): FeedInfo['state'] => {
        const last = s?.lastSuccessAt ? Date.parse(s.lastSuccessAt) : null
        return !s?.lastAttemptAt
          ? 'never'
          : s.lastError
            ? 'error'
            : last !== null && now - last > 2 * everyMinutes * 60_000
              ? 'stale'
              : 'ok'
      }
      // What a vector or grid feed shows alike: its schedule, source and freshness.
      const freshness = (f: {
        id: string
        everyMinutes: number
        enabled?: boolean
        source: { url?: string; file?: string }
      }) => {
        const s = status.get(f.id)
        return {
          everyMinutes: f.everyMinutes,
          enabled: f.enabled !== false,
          source: s?.source ?? f.source.url ?? f.source.file ?? null,
          lastAttemptAt: s?.lastAttemptAt ?? null,
          lastSuccessAt: s?.lastSuccessAt ?? null,
          newestDataAt: s?.newestDataAt ?? null,
          lastError: s?.lastError ?? null,
          lastErrorAt: s?.lastErrorAt ?? null,
          failures: s?.failures ?? 0,
          state: stateOf(s, f.everyMinutes),
          summary: s?.summary ?? null,
        }
      }
      const feeds: FeedInfo[] = poller.config.feeds.map((f) => ({
        id: f.id,
        title: f.title,
        dataset: f.dataset,
        kind: 'vector' as const,
        layers: layersOf.get(f.dataset) ?? [],
        format: f.format,
        mode: f.mode,
        ...freshness(f),
      }))
      // Grid feeds: the same freshness; their badge sits on the layers drawing the grid.
      for (const f of poller.config.gridFeeds ?? [])
        feeds.push({
          id: f.id,
          title: f.title,
          dataset: f.grid === 'wind' ? WIND_U_GRID : f.grid,
          kind: 'grid',
          grid: f.grid,
          layers: layersOfGrid.get(f.grid) ?? [],
          format: f.format,
          mode: 'replace',
          ...freshness(f),
        })
      // Every dataset's version (a feed run or an import bumps it): open tables refetch when it moves.
      const versions = Object.fromEntries(
        await Promise.all(
          app.store.catalog.datasets.map(async (d) => [d.id, (await app.store.info(d.id)).version] as const),
        ),
      )
      return { polling: poller.enabled, now: new Date(now).toISOString(), feeds, versions }
    },
  )
}
