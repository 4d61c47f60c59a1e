import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { guardedLookup, refusedAddressReason, RefusedUpstream } from './upstreamAddress'

export interface UpstreamRequest {
  readonly url: URL
  /** The one host (host:port) this source may reach; redirects elsewhere are refused. */
  readonly allowedHost: string
  readonly headers: Readonly<Record<string, string>>
  readonly timeoutMs: number
  readonly maxBytes: number
  readonly allowPrivateNetwork: boolean
  /** A form POST instead of a GET (ArcGIS generateToken); redirects of a POST are not followed. */
  readonly form?: Readonly<Record<string, string>>
}

export interface UpstreamAnswer {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  readonly body: Buffer
}

/** The upstream failed (502) or did not answer in time (504); the message says why. */
export class UpstreamFailure extends Error {
  constructor(
    readonly statusCode: 502 | 504,
    message: string,
  ) {
    super(message)
  }
}

/** The upstream reset a reused keep-alive socket before answering (retried once on a new socket). */
class StaleSocket extends UpstreamFailure {}

const MAX_REDIRECTS = 3
const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * GETs an upstream URL with the source's credentials: only its declared host, redirects followed
 * by hand and only to that host, every resolved address checked (see guardedLookup), one deadline
 * for the whole exchange, the body capped at maxBytes. Throws UpstreamFailure (502/504).
 */
export async function fetchUpstream(req: UpstreamRequest): Promise<UpstreamAnswer> {
  const deadline = Date.now() + req.timeoutMs
  let url = req.url
  for (let hop = 0; ; hop++) {
    checkTarget(url, req)
    const answer = await getOnce(url, req, deadline).catch((e: unknown) => {
      // A kept-alive socket the upstream closed just as we reused it (Node's advice): ask once more
      // on a fresh one — a GET only; a POST might have been received.
      if (e instanceof StaleSocket) return getOnce(url, req, deadline)
      throw e
    })
    const location = answer.headers.location
    if (!REDIRECTS.has(answer.status) || location === undefined || req.form) return answer
    if (hop >= MAX_REDIRECTS) throw new UpstreamFailure(502, `more than ${MAX_REDIRECTS} redirects`)
    const next = URL.canParse(location, url) ? new URL(location, url) : null
    if (next === null) throw new UpstreamFailure(502, `upstream redirected to an unreadable location`)
    if (next.host !== req.allowedHost || !/^https?:$/.test(next.protocol)) {
      throw new UpstreamFailure(
        502,
        `redirect to ${next.host || next.protocol} refused: only ${req.allowedHost} is allowed for this source`,
      )
    }
    url = next
  }
}

function checkTarget(url: URL, req: UpstreamRequest): void {
  if (url.host !== req.allowedHost)
    throw new UpstreamFailure(502, `host ${url.host} is not allowed for this source`)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (net.isIP(host) && !req.allowPrivateNetwork) {
    const why = refusedAddressReason(host)
    if (why !== null)
      throw new UpstreamFailure(502, `${host} is a ${why} address; not allowed for this source`)
  }
}

function getOnce(url: URL, req: UpstreamRequest, deadline: number): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http
    const timeLeft = Math.max(1, deadline - Date.now())
    let settled = false
    const fail = (e: UpstreamFailure) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      request.destroy()
      reject(e)
    }
    let request: http.ClientRequest
    const form = req.form ? new URLSearchParams(req.form).toString() : undefined
    try {
      request = client.request(
        url,
        {
          method: form === undefined ? 'GET' : 'POST',
          headers: {
            ...req.headers,
            'user-agent': 'Emberline source proxy',
            ...(form === undefined
              ? {}
              : {
                  'content-type': 'application/x-www-form-urlencoded',
                  'content-length': String(Buffer.byteLength(form)),
                }),
          },
          lookup: guardedLookup(req.allowPrivateNetwork),
        },
        (res) => {
          const declared = Number(res.headers['content-length'])
          if (Number.isFinite(declared) && declared > req.maxBytes) {
            return fail(
              new UpstreamFailure(
                502,
                `upstream body of ${declared} bytes is above this source's limit of ${req.maxBytes}`,
              ),
            )
          }
          const chunks: Buffer[] = []
          let total = 0
          res.on('data', (chunk: Buffer) => {
            total += chunk.length
            if (total > req.maxBytes)
              return fail(
                new UpstreamFailure(
                  502,
                  `upstream body is above this source's limit of ${req.maxBytes} bytes`,
                ),
              )
            chunks.push(chunk)
          })
          res.on('end', () => {
            if (settled) return
            settled = true
            clearTimeout(timer)
            resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) })
          })
          res.on('error', (e) => fail(new UpstreamFailure(502, `upstream answer interrupted: ${e.message}`)))
        },
      )
    } catch (e) {
      // A header value Node cannot send (a newline from the environment): the source's config.
      return reject(new UpstreamFailure(502, `cannot send the request: ${(e as Error).message}`))
    }
    const timer = setTimeout(
      () => fail(new UpstreamFailure(504, `upstream did not answer within ${req.timeoutMs} ms`)),
      timeLeft,
    )
    request.on('error', (e) => {
      if (e instanceof RefusedUpstream) return fail(new UpstreamFailure(502, e.message))
      if (request.reusedSocket && form === undefined && (e as NodeJS.ErrnoException).code === 'ECONNRESET')
        return fail(new StaleSocket(502, `cannot reach upstream ${url.host}: ${e.message}`))
      fail(new UpstreamFailure(502, `cannot reach upstream ${url.host}: ${e.message}`))
    })
    request.end(form)
  })
}
