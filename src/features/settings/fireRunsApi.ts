import { authFetch } from '../session'
import { requestJson, SettingsError } from './apiRequest'

type Fetcher = typeof authFetch

/** A fire consequence run as GET /api/fire/runs/<id> answers it (docs/fire.md "Consequence run"). */
export interface FireRunView {
  id: number
  status: 'running' | 'complete' | 'failed'
  trigger: 'weather' | 'admin'
  referenceTime: string
  startHours: number[]
  batchesTotal: number
  batchesDone: number
  ignitionsTotal: number
  createdAt: string
  finishedAt: string | null
  error: string | null
  provenance: Record<string, unknown>
  batches?: { queued: number; running: number; done: number; failed: number }
  servers?: { server: string; done: number; running: number; batchMs: number }[]
}

/** The newest run with its progress; null when there is none; undefined without the permission. */
export async function fetchLatestFireRun(
  fetcher: Fetcher = authFetch,
): Promise<FireRunView | null | undefined> {
  try {
    const list = (await requestJson('/api/fire/runs?limit=1', undefined, fetcher)) as { runs: FireRunView[] }
    const latest = list.runs[0]
    if (!latest) return null
    const one = (await requestJson(`/api/fire/runs/${latest.id}`, undefined, fetcher)) as { run: FireRunView }
    return one.run
  } catch (error) {
    if (error instanceof SettingsError && error.status === 403) return undefined
    throw error
  }
}

/** Starts a run now (POST /api/fire/runs); a run still running is refused with the server's words. */
export async function startFireRun(fetcher: Fetcher = authFetch): Promise<number> {
  // authFetch always sends Content-Type: application/json, so the body is `{}`, not empty (Fastify
  // refuses an empty JSON body with 400).
  const body = (await requestJson('/api/fire/runs', { method: 'POST', body: '{}' }, fetcher)) as {
    id: number
  }
  return body.id
}
