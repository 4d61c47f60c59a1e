import {
  MACHINE_CLIENT_SQL,
  machineClientOf,
  machineClientParams,
  type MachineClientRow,
  type MachineClientStore,
} from '../../machineClientStore'
import type { PgDatabase } from '../pgDatabase'
import { nulSafe } from './nulSafe'

/** `?` placeholders as PostgreSQL's `$1, $2, …`. */
const numbered = (sql: string): string => {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}

const SQL = Object.fromEntries(
  Object.entries(MACHINE_CLIENT_SQL).map(([k, v]) => [k, numbered(v)]),
) as Record<keyof typeof MACHINE_CLIENT_SQL, string>

/** Machine clients in PostgreSQL: the SQLite store's statements and row mapper. */
export function createPgMachineClientStore(pg: PgDatabase): MachineClientStore {
  const db = nulSafe(pg)
  return {
    async insert(client) {
      await db.run(SQL.insert, machineClientParams(client))
    },
    async byId(clientId) {
      const row = await db.one<MachineClientRow>(SQL.byId, [clientId])
      return row ? machineClientOf(row) : null
    },
    async list(organizationId) {
      return (await db.query<MachineClientRow>(SQL.list, [organizationId])).map(machineClientOf)
    },
    async rotate(clientId, secretHash, secretLast4, now) {
      return (await db.run(SQL.rotate, [secretHash, secretLast4, now, clientId])) > 0
    },
    async revoke(clientId, now) {
      return (await db.run(SQL.revoke, [now, clientId])) > 0
    },
    async touch(clientId, now) {
      await db.run(SQL.touch, [now, clientId])
    },
  }
}
