import type Database from 'better-sqlite3'
import { createIdentityStore, type IdentityStore } from './identityStore'
import { createIdentityTokenStore, type IdentityTokenStore } from './identityTokenStore'
import { createMachineClientStore, type MachineClientStore } from './machineClientStore'

/** The identity provider's stores: members, sessions and audit; tokens, OTPs and throttles; machine clients. */
export interface IdentityStorage {
  readonly members: IdentityStore
  readonly tokens: IdentityTokenStore
  readonly machines: MachineClientStore
}

/**
 * Where the identity code finds its stores: the app's store (AppStore has both) or, for the
 * users CLI and tests, an open accounts database (the stores are built over it here).
 */
export type AccountsSource = IdentityStorage | Database.Database

export function identityStorage(source: AccountsSource): IdentityStorage {
  if ('members' in source && 'tokens' in source && 'machines' in source) return source
  return {
    members: createIdentityStore(source),
    tokens: createIdentityTokenStore(source),
    machines: createMachineClientStore(source),
  }
}
