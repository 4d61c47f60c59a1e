/** What GET /api/meta tells the browser (no session needed). */
export interface ServerMeta {
  /** The server's demo flag; null when the answer has none. */
  readonly demo: boolean | null
  readonly referenceDate: string | null
}

/** The meta body, tolerant of missing or mistyped fields. */
export function parseServerMeta(body: unknown): ServerMeta {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
  return {
    demo: typeof fields.demo === 'boolean' ? fields.demo : null,
    referenceDate: typeof fields.referenceDate === 'string' ? fields.referenceDate : null,
  }
}

let request: Promise<ServerMeta | null> | null = null
let settled: ServerMeta | null | undefined

/**
 * GET /api/meta once per page load (the top bar's demo badge, the map's default view and the risk
 * panel's 'Today' all read it). Null when the call fails. main.tsx starts it at boot, so it runs
 * alongside the session check and the screen's chunks instead of after the map screen mounts.
 */
export function serverMeta(fetchImpl: typeof fetch = fetch): Promise<ServerMeta | null> {
  request ??= fetchImpl('/api/meta')
    .then(async (response) => {
      if (!response.ok) throw new Error(`GET /api/meta answered ${response.status}`)
      return parseServerMeta(await response.json())
    })
    .catch((error: unknown) => {
      console.warn('GET /api/meta failed', error)
      return null
    })
    .then((meta) => {
      settled = meta
      return meta
    })
  return request
}

/** The meta answer if it has arrived (null: failed), undefined while it is pending or not asked. */
export function settledServerMeta(): ServerMeta | null | undefined {
  return settled
}

/** Forgets the cached answer (tests). */
export function resetServerMeta(): void {
  request = null
  settled = undefined
}
