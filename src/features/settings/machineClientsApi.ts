import { authFetch } from '../session'
import { requestJson } from './apiRequest'

type Fetcher = typeof authFetch

/** The data scopes a machine client can hold (docs/identity.md "Machine clients"). */
export const MACHINE_SCOPES = [
  { scope: 'data:read', label: 'data:read — read records, tiles, OGC API and exports' },
  { scope: 'data:write', label: 'data:write — deliver datasets and grids (ingestion)' },
] as const

/** A machine client as GET /api/admin/m2m-clients answers it (never its secret). */
export interface MachineClientView {
  client_id: string
  client_name: string
  scopes: string[]
  status: 'active' | 'revoked'
  client_secret_last_four: string
  created_at: string
  rotated_at: string | null
  revoked_at: string | null
  last_token_at: string | null
}

/** A client with its secret, answered once at creation or rotation. */
export interface MachineClientSecret {
  client: MachineClientView
  client_secret: string
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

/** The Organization section's calls to /api/admin/m2m-clients (each failure a SettingsError). */
export function machineClientsApi(fetcher: Fetcher = authFetch) {
  return {
    async list(): Promise<MachineClientView[]> {
      return (
        (await requestJson('/api/admin/m2m-clients', undefined, fetcher)) as { clients: MachineClientView[] }
      ).clients
    },
    async create(name: string, scopes: readonly string[]): Promise<MachineClientSecret> {
      return (await requestJson(
        '/api/admin/m2m-clients',
        json({ name, scopes }),
        fetcher,
      )) as MachineClientSecret
    },
    async rotate(clientId: string): Promise<MachineClientSecret> {
      return (await requestJson(
        `/api/admin/m2m-clients/${encodeURIComponent(clientId)}/rotate`,
        json({}),
        fetcher,
      )) as MachineClientSecret
    },
    async revoke(clientId: string): Promise<MachineClientView> {
      return (
        (await requestJson(
          `/api/admin/m2m-clients/${encodeURIComponent(clientId)}`,
          // authFetch always sends Content-Type: application/json, so the body is `{}`, not empty.
          { method: 'DELETE', body: '{}' },
          fetcher,
        )) as { client: MachineClientView }
      ).client
    },
  }
}

export type MachineClientsApi = ReturnType<typeof machineClientsApi>
