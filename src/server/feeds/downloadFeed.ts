/** The answer of a feed download: a body with its validators, or "not modified". */
export type Download =
  | { status: 'ok'; text: string; etag: string | null; lastModified: string | null; bytes?: Buffer }
  | { status: 'not-modified' }

export interface DownloadOptions {
  timeoutMs: number
  maxBytes: number
  headers: Record<string, string>
  /** Validators of the last good download (conditional GET). */
  etag?: string | null
  lastModified?: string | null
  /** Extra attempts after a retryable failure (network, timeout, 5xx, 429), waiting backoffMs·2^i. */
  retries: number
  backoffMs: number
  /** Waits between attempts (tests pass a fake). */
  sleep?: (ms: number) => Promise<void>
  /** Keep the body as bytes (`bytes`, `text` empty): grid files (GRIB2, NetCDF, GeoTIFF). */
  binary?: boolean
}

/** A failure that another attempt may fix (network, timeout, 5xx, 429). */
class RetryableError extends Error {}

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

async function readLimited(res: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? NaN)
  if (Number.isFinite(declared) && declared > maxBytes)
    throw new Error(`body of ${declared} bytes exceeds the limit of ${maxBytes}`)
  if (!res.body) return Buffer.alloc(0)
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel()
      throw new Error(`body exceeds the limit of ${maxBytes} bytes`)
    }
    chunks.push(value)
  }
  if (Number.isFinite(declared) && total !== declared)
    throw new Error(`truncated body: ${total} of ${declared} bytes`)
  return Buffer.concat(chunks)
}

async function attempt(url: string, o: DownloadOptions): Promise<Download> {
  const headers: Record<string, string> = { ...o.headers }
  if (o.etag) headers['If-None-Match'] = o.etag
  if (o.lastModified) headers['If-Modified-Since'] = o.lastModified
  let res: Response
  try {
    res = await fetch(url, { headers, signal: AbortSignal.timeout(o.timeoutMs), redirect: 'follow' })
  } catch (e) {
    const timeout = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')
    throw new RetryableError(
      timeout ? `no answer within ${o.timeoutMs / 1000} s` : `cannot connect: ${causeOf(e)}`,
    )
  }
  if (res.status === 304) {
    await res.body?.cancel()
    return { status: 'not-modified' }
  }
  if (!res.ok) {
    await res.body?.cancel()
    const msg = `HTTP ${res.status} ${res.statusText}`.trim()
    if (res.status >= 500 || res.status === 429) throw new RetryableError(msg)
    throw new Error(msg)
  }
  let body: Buffer
  try {
    body = await readLimited(res, o.maxBytes)
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e)
    if (/limit/.test(msg)) throw new Error(msg)
    throw new RetryableError(/truncated/.test(msg) ? msg : `download interrupted: ${causeOf(e)}`)
  }
  const validators = { etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified') }
  if (o.binary) return { status: 'ok', text: '', bytes: body, ...validators }
  return { status: 'ok', text: new TextDecoder('utf-8').decode(body), ...validators }
}

function causeOf(e: unknown): string {
  if (!(e instanceof Error)) return String(e)
  const cause = (e as Error & { cause?: unknown }).cause
  return cause instanceof Error ? `${e.message} (${cause.message})` : e.message
}

/**
 * GETs a feed with a timeout, a size limit, conditional-GET validators and retries with doubling
 * backoff. A 304 answers `not-modified`; every failure throws a one-line reason.
 */
export async function downloadFeed(url: string, o: DownloadOptions): Promise<Download> {
  const sleep = o.sleep ?? wait
  for (let i = 0; ; i++) {
    try {
      return await attempt(url, o)
    } catch (e) {
      if (!(e instanceof RetryableError) || i >= o.retries)
        throw new Error(e instanceof Error ? e.message : String(e))
      await sleep(o.backoffMs * 2 ** i)
    }
  }
}
