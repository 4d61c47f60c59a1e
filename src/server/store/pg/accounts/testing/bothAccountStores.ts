import type Database from 'better-sqlite3'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { openAccountsDb } from '../../../accountsDb'
import { createAlertSubscriptionStore } from '../../../alertSubscriptionStore'
import { createAlertsStore } from '../../../alertsStore'
import { createDeliveryStore } from '../../../deliveryStore'
import { createIdentityStore } from '../../../identityStore'
import { createIdentityTokenStore } from '../../../identityTokenStore'
import { createMachineClientStore } from '../../../machineClientStore'
import { createPreferencesStore } from '../../../preferencesStore'
import { createPspsEventStore } from '../../../pspsEventStore'
import { testPg, type TestPg } from '../../testing/pgTestDatabase'
import { pgAccountStores, type PgAccountStores } from '../index'

export type AccountStoreKind = 'sqlite' | 'postgres'

/** For `describe.each`: the same assertions over the SQLite and the PostgreSQL accounts stores. */
export const ACCOUNT_STORE_KINDS: AccountStoreKind[] = ['sqlite', 'postgres']

/** The SQLite accounts stores over one in-memory accounts database (as SqliteStore builds them). */
export function sqliteAccountStores(db: Database.Database): PgAccountStores {
  return {
    members: createIdentityStore(db),
    tokens: createIdentityTokenStore(db),
    machines: createMachineClientStore(db),
    acks: createAlertsStore(db),
    preferences: createPreferencesStore(db),
    subscriptions: createAlertSubscriptionStore(db),
    delivery: createDeliveryStore(db),
    pspsEvents: createPspsEventStore(db),
  }
}

const ACCOUNT_TABLES = [
  'identity_members',
  'identity_sessions',
  'identity_intermediate_sessions',
  'identity_otp_codes',
  'identity_reset_tokens',
  'identity_throttle',
  'identity_signing_keys',
  'identity_audit',
  'm2m_clients',
  'member_preferences',
  'alert_acks',
  'alert_subscriptions',
  'alert_episodes',
  'alert_notices',
  'delivery_jobs',
  'delivery_log',
  'psps_events',
  'psps_event_phases',
  'psps_event_circuits',
  'psps_circuit_periods',
]

export interface AccountStoresUnderTest {
  /** The stores of the current test (empty at its start). */
  readonly stores: PgAccountStores
  /** The PostgreSQL test database (postgres only). */
  readonly pg: TestPg | null
  /** Rows in one of the accounts tables (either store). */
  count(table: string): Promise<number>
}

/**
 * Registers hooks that give each test of the calling `describe` empty accounts stores of `kind`:
 * a new in-memory SQLite database, or the file's PostgreSQL test database emptied.
 */
export function accountStoresFor(kind: AccountStoreKind): AccountStoresUnderTest {
  let stores: PgAccountStores | null = null
  let sqlite: Database.Database | null = null
  let pg: TestPg | null = null
  if (kind === 'postgres') {
    beforeAll(async () => {
      pg = await testPg()
    })
    afterAll(async () => pg?.drop())
  } else {
    afterAll(() => sqlite?.close())
  }
  beforeEach(async () => {
    if (pg) {
      await pg.db.run(`TRUNCATE ${ACCOUNT_TABLES.join(', ')} RESTART IDENTITY CASCADE`)
      stores = pgAccountStores(pg.db)
    } else {
      sqlite?.close()
      sqlite = openAccountsDb(null)
      stores = sqliteAccountStores(sqlite)
    }
  })
  return {
    get stores() {
      if (!stores) throw new Error('accountStoresFor: used outside a test')
      return stores
    },
    get pg() {
      return pg
    },
    async count(table: string): Promise<number> {
      if (!ACCOUNT_TABLES.includes(table)) throw new Error(`not an accounts table: ${table}`)
      if (pg) return (await pg.db.one<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))?.n ?? 0
      return Number(sqlite?.prepare(`SELECT count(*) FROM ${table}`).pluck().get() ?? 0)
    },
  }
}
