import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, normalize } from 'node:path'

/** A static file server with byte ranges and ETags, like a CDN in front of an archive; it can be stopped and started again on its port. */
export interface RangeServer {
  readonly url: string
  readonly port: number
  /** Requests seen: path and Range header. */
  readonly seen: { path: string; range: string | undefined }[]
  stop(): Promise<void>
  start(): Promise<void>
}

function answer(
  dir: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  seen: RangeServer['seen'],
): void {
  const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname))
  seen.push({ path, range: req.headers.range })
  let body: Buffer
  try {
    if (path.includes('..')) throw new Error('no')
    body = readFileSync(join(dir, path))
  } catch {
    res.writeHead(404).end()
    return
  }
  const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`
  const type = path.endsWith('.json')
    ? 'application/json'
    : path.endsWith('.pbf') || path.endsWith('.mvt')
      ? 'application/x-protobuf'
      : path.endsWith('.png')
        ? 'image/png'
        : 'application/octet-stream'
  const headers: http.OutgoingHttpHeaders = { etag, 'accept-ranges': 'bytes', 'content-type': type }
  if (path.endsWith('.gz.pbf')) headers['content-encoding'] = 'gzip'
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers).end()
    return
  }
  const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '')
  if (!m) {
    res.writeHead(200, headers).end(body)
    return
  }
  const start = Number(m[1])
  const end = Math.min(m[2] ? Number(m[2]) : body.length - 1, body.length - 1)
  if (start >= body.length) {
    res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end()
    return
  }
  res
    .writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${body.length}` })
    .end(body.subarray(start, end + 1))
}

/** Serves the files of `dir` on 127.0.0.1 (a free port, or `port`). */
export async function startRangeServer(dir: string, port = 0): Promise<RangeServer> {
  const seen: RangeServer['seen'] = []
  let server: http.Server | null = null
  let bound = port
  const start = async () => {
    const s = http.createServer((req, res) => answer(dir, req, res, seen))
    await new Promise<void>((resolve) => s.listen(bound, '127.0.0.1', resolve))
    bound = (s.address() as AddressInfo).port
    server = s
  }
  const stop = async () => {
    const s = server
    server = null
    if (!s) return
    s.closeAllConnections()
    await new Promise<void>((resolve) => s.close(() => resolve()))
  }
  await start()
  return {
    get url() {
      return `http://127.0.0.1:${bound}`
    },
    get port() {
      return bound
    },
    seen,
    stop,
    start,
  }
}
