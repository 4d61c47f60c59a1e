import type { AlertSubscriptionStore } from '../../alertSubscriptionStore'
import type { AlertsStore } from '../../alertsStore'
import type { DeliveryStore } from '../../deliveryStore'
import type { IdentityStore } from '../../identityStore'
import type { IdentityTokenStore } from '../../identityTokenStore'
import type { MachineClientStore } from '../../machineClientStore'
import type { PreferencesStore } from '../../preferencesStore'
import type { PspsEventStore } from '../../pspsEventStore'
import type { PgDatabase } from '../pgDatabase'
import { createPgAlertSubscriptionStore } from './pgAlertSubscriptionStore'
import { createPgAlertsStore } from './pgAlertsStore'
import { createPgDeliveryStore } from './pgDeliveryStore'
import { createPgIdentityStore } from './pgIdentityStore'
import { createPgIdentityTokenStore } from './pgIdentityTokenStore'
import { createPgMachineClientStore } from './pgMachineClientStore'
import { createPgPreferencesStore } from './pgPreferencesStore'
import { createPgPspsEventStore } from './pgPspsEventStore'

/** The accounts-side stores of `PgStore` (AppStore's members … delivery) over one PostgreSQL database. */
export interface PgAccountStores {
  members: IdentityStore
  tokens: IdentityTokenStore
  machines: MachineClientStore
  acks: AlertsStore
  preferences: PreferencesStore
  subscriptions: AlertSubscriptionStore
  delivery: DeliveryStore
  pspsEvents: PspsEventStore
}

/**
 * Every accounts store over `db` (migrations src/server/store/pg/migrations/accounts, applied by
 * migratePg). None keeps state of its own between calls, so any number of servers may share the
 * database; the identity store has no synchronous change stamp (every session check reads it).
 */
export function pgAccountStores(db: PgDatabase): PgAccountStores {
  return {
    members: createPgIdentityStore(db),
    tokens: createPgIdentityTokenStore(db),
    machines: createPgMachineClientStore(db),
    acks: createPgAlertsStore(db),
    preferences: createPgPreferencesStore(db),
    subscriptions: createPgAlertSubscriptionStore(db),
    delivery: createPgDeliveryStore(db),
    pspsEvents: createPgPspsEventStore(db),
  }
}
