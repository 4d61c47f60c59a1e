import type { FeedRow } from '../feeds/feedRow'
import type { RunSummary } from '../feeds/feedTypes'
import type { GridRaster } from '../grids/gridRaster'
import type { AlertSubscriptionStore } from './alertSubscriptionStore'
import type { AlertsStore } from './alertsStore'
import type { Awaitable } from './Awaitable'
import type { ColumnIndex } from './columnIndex'
import type { DatasetDef } from './catalog'
import type { DatasetFreshness } from './datasetFreshness'
import type { DeliveryStore } from './deliveryStore'
import type { FeedStatus } from './feedStore'
import type { FireRunStorage } from './fireRunStore'
import type { StoredGrid, GridSummary } from './gridStore'
import type { IdentityStore } from './identityStore'
import type { IdentityTokenStore } from './identityTokenStore'
import type { MachineClientStore } from './machineClientStore'
import type { DatasetExtents, OgcFeatureRow } from './ogcFeatures'
import type { PreferencesStore } from './preferencesStore'
import type { PspsEventStore } from './pspsEventStore'
import type { Store } from './Store'

// The store interfaces of every area. The server (routes, engines, feeds, identity) sees only
// these; the SQLite classes under src/server/store and the PostgreSQL classes under
// src/server/store/pg implement them and hold the only database handles. A method answers
// `Awaitable<T>`: the SQLite classes answer synchronously (better-sqlite3 is), the PostgreSQL
// ones with promises; callers always `await`.

/** The feature store as the server uses it: datasets, records, series, tiles' rows, meta. */
export interface FeatureStore extends Store {
  /** True when no dataset holds a feature (a fresh store: first start seeds it). */
  isEmpty(): Awaitable<boolean>
  /** Forgets what is cached about a dataset replaced through another connection (a worker). */
  datasetReplaced(id: string): Awaitable<void>
  /** Builds the records indexes ahead of the first requests. */
  warm(): Awaitable<void>
  /**
   * Runs `fn` in one write transaction of the feature store, all or nothing (seeding): every
   * feature-store write `fn` makes (datasets, series, meta, grids) joins it, a nested call joins
   * the outer one, and a rejection rolls all of it back. `fn` is async so the PostgreSQL store's
   * writes can be awaited inside it. The SQLite store holds its one connection in the
   * transaction until `fn` settles, so `fn` must only await store calls (no timers, network or
   * file I/O: the process's other writers would land inside it); a second transaction begun
   * from elsewhere meanwhile is refused.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>
  /** The records column index of a dataset's current version; null while it is built. */
  columnIndex(id: string): Awaitable<ColumnIndex | null>
}

/** Gridded fields (forecast hours of a raster), migrations 040/041. */
export interface GridStorage {
  /** Replaces every hour of a grid in one transaction (hour n = hours[n]); returns the version. */
  replaceGrid(id: string, hours: readonly GridRaster[], source: string): Awaitable<string>
  /** One hour of a grid, or undefined when not stored. */
  grid(id: string, hour?: number): Awaitable<StoredGrid | undefined>
  /** The version of a grid (all hours share it), or undefined when not stored. */
  version(id: string): Awaitable<string | undefined>
  list(): Awaitable<GridSummary[]>
  deleteGrid(id: string): Awaitable<void>
}

/** What a successful feed run records beside its rows: where from, when, its summary and validators. */
export interface SuccessfulFeedRun {
  source: string
  at: string
  summary: RunSummary
  etag: string | null
  lastModified: string | null
}

/** Live feeds' records and freshness (migration 100). */
export interface FeedStorage {
  /** The feed's current records (empty before its first successful run). */
  rows(feed: string, fields: readonly string[]): Awaitable<FeedRow[]>
  status(feed: string): Awaitable<FeedStatus | null>
  allStatus(): Awaitable<FeedStatus[]>
  /** A successful run: the feed's records replaced, freshness and validators updated (one transaction). */
  saveRun(
    feed: string,
    dataset: string,
    rows: readonly FeedRow[],
    fields: readonly string[],
    run: SuccessfulFeedRun,
  ): Awaitable<void>
  /** A run that changed nothing (304 Not Modified): it still counts as a successful check. */
  saveNotModified(feed: string, dataset: string, at: string): Awaitable<void>
  /** A failed run: the error is recorded, the data and the validators stay as they were. */
  saveFailure(
    feed: string,
    dataset: string,
    source: string,
    at: string,
    error: string,
    summary: RunSummary | null,
  ): Awaitable<void>
}

/** Features with geometry by id, and per-row extents, for the OGC API and exports. */
export interface OgcFeatureStorage {
  /** Geometry blobs of `ids` (missing ids are absent from the map). */
  geometries(d: DatasetDef, ids: readonly number[]): Awaitable<Map<number, Uint8Array>>
  /** Whole rows of `ids`, in the order of `ids`. */
  rows(d: DatasetDef, ids: readonly number[]): Awaitable<OgcFeatureRow[]>
  /** Every id of the dataset, in id order. */
  allIds(d: DatasetDef): Awaitable<number[]>
  /** Ids (id order) of the rows whose fields pass `keep` (the fallback while a column index is built). */
  scanIds(d: DatasetDef, fields: readonly string[], keep: (values: unknown[]) => boolean): Awaitable<number[]>
  /** The extents of the dataset's current version (read once per version, then kept). */
  extents(d: DatasetDef, version: number): Awaitable<DatasetExtents>
}

/**
 * `app.store`: the feature store and, by area, every other store of the server — all built by
 * the one store object (SqliteStore: openStore()), so nothing else opens or holds a database.
 */
export interface AppStore extends FeatureStore {
  readonly grids: GridStorage
  readonly feeds: FeedStorage
  readonly ogc: OgcFeatureStorage
  /** Version, count, last write and newest data time of a dataset (the shift briefing). */
  freshness(def: DatasetDef): Awaitable<DatasetFreshness>
  /** Accounts database: members, sessions, audit (identity provider). */
  readonly members: IdentityStore
  /** Accounts database: intermediate sessions, OTPs, reset tokens, throttles. */
  readonly tokens: IdentityTokenStore
  /** Accounts database: machine clients (Stytch M2M). */
  readonly machines: MachineClientStore
  /** Accounts database: alert acknowledgements. */
  readonly acks: AlertsStore
  /** Accounts database: member display preferences. */
  readonly preferences: PreferencesStore
  /** Accounts database: alert subscriptions. */
  readonly subscriptions: AlertSubscriptionStore
  /** Accounts database: alert episodes, notices, delivery jobs and log. */
  readonly delivery: DeliveryStore
  /** Fire consequence runs: the job table, its batches and results (src/server/fire/runs). */
  readonly fireRuns: FireRunStorage
  /** Accounts database: PSPS events, their circuits and de-energization periods. */
  readonly pspsEvents: PspsEventStore
}
