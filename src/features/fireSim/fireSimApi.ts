import type { FireWhatIfInfo, FireWhatIfRequest, FireWhatIfResult } from '../../shared/fireSim/wireTypes'
import { authFetch } from '../session'

/** An answer other than 200 from the what-if API, with the server's message. */
export class FireSimApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

async function json<T>(res: Response): Promise<T> {
  const body: unknown = await res.json().catch(() => null)
  if (!res.ok) {
    const m = (body as { message?: unknown } | null)?.message
    throw new FireSimApiError(res.status, typeof m === 'string' ? m : `${res.status} ${res.statusText}`)
  }
  return body as T
}

/** GET /api/fire/simulate: the forecast hours and the landscape's extent (also starts the server's worker). */
export async function fetchWhatIfInfo(signal?: AbortSignal): Promise<FireWhatIfInfo> {
  return json<FireWhatIfInfo>(await authFetch('/api/fire/simulate', { signal }))
}

/** POST /api/fire/simulate: one what-if fire. */
export async function runWhatIf(request: FireWhatIfRequest, signal?: AbortSignal): Promise<FireWhatIfResult> {
  return json<FireWhatIfResult>(
    await authFetch('/api/fire/simulate', { method: 'POST', body: JSON.stringify(request), signal }),
  )
}
