import type { AlertSubscriptionStore } from './alertSubscriptionStore'
import type { AlertsStore } from './alertsStore'
import type { Awaitable } from './Awaitable'
import type { ColumnIndex } from './columnIndex'
import type { DatasetDef } from './catalog'
import type { DatasetFreshness } from './datasetFreshness'
import type { DeliveryStore } from './deliveryStore'
import type { FeedStorage } from './feedStore'
import type { FireRunStorage } from './fireRunStore'
import type { GridStorage } from './gridStore'
import type { IdentityStore } from './identityStore'
import type { IdentityTokenStore } from './identityTokenStore'
import type { MachineClientStore } from './machineClientStore'
import type { OgcFeatureStorage } from './ogcFeatures'
import type { PreferencesStore } from './preferencesStore'
import type { PspsEventStore } from './pspsEventStore'
import type { Store } from './Store'

// Each area declares its storage interface beside its SQLite implementation; they are named here
// too, so callers keep importing them from the one place (types flow one way: AppStore → area).
export type { FeedStorage, SuccessfulFeedRun } from './feedStore'
export type { GridStorage } from './gridStore'
export type { OgcFeatureStorage } from './ogcFeatures'

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
