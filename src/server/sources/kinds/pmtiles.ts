import { open, realpath, type FileHandle } from 'node:fs/promises'
import { isAbsolute, relative, resolve } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import {
  Compression,
  EtagMismatch,
  PMTiles,
  ResolvedValueCache,
  TileType,
  type RangeResponse,
  type Source as PmtilesReader,
} from 'pmtiles'
import type { PmtilesSource } from '../../../shared/config'
import { noQuery } from '../../http/schemas'
import { TILE_PARAMS_SCHEMA, type TileParams } from '../../tiles/tileMath'
import { UpstreamFailure } from '../fetchUpstream'
import { archiveError, fetchFor, filledUrl, type KindContext } from './archive'
import { refuseTileAddress } from '../tileAddress'

/** Tile bytes decompressed by Node's zlib (PMTiles stores tiles and directories gzip, brotli or plain). */
async function decompress(buf: ArrayBuffer, compression: Compression): Promise<ArrayBuffer> {
  const bytes = Buffer.from(buf)
  const out =
    compression === Compression.None || compression === Compression.Unknown
      ? bytes
      : compression === Compression.Gzip
        ? gunzipSync(bytes)
        : compression === Compression.Brotli
          ? brotliDecompressSync(bytes)
          : null
  if (out === null)
    throw new UpstreamFailure(502, `the archive uses a compression we cannot read (${compression})`)
  return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer
}

function arrayBuffer(b: Buffer): ArrayBuffer {
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer
}

/** Range requests through our proxy (host allow-list, credentials, cache, health). */
class UpstreamRangeReader implements PmtilesReader {
  constructor(
    private readonly ctx: KindContext,
    private readonly source: PmtilesSource,
  ) {}

  getKey(): string {
    return `upstream:${this.source.id}`
  }

  async getBytes(
    offset: number,
    length: number,
    _signal?: AbortSignal,
    etag?: string,
  ): Promise<RangeResponse> {
    const url = filledUrl(this.source.url ?? '', this.ctx.env)
    const got = await fetchFor(this.ctx, this.source, url, { offset, length })
    if (got.status === 416 && offset > 0) return { data: new ArrayBuffer(0) }
    if (got.status !== 200)
      throw new UpstreamFailure(502, `upstream answered HTTP ${got.status} to a range request`)
    // The archive changed upstream since its header was read: the reader re-reads it once.
    if (etag !== undefined && got.etag !== undefined && got.etag !== etag) throw new EtagMismatch()
    return { data: arrayBuffer(got.body), etag: got.etag }
  }
}

/**
 * The archive's path: `file` resolved below the archive directory, refused when it leads outside
 * it (`..`, an absolute path, or a symbolic link pointing out).
 */
export async function archivePath(archiveDir: string, file: string): Promise<string> {
  const root = resolve(archiveDir)
  const full = resolve(root, file)
  const rel = relative(root, full)
  if (isAbsolute(file) || rel.startsWith('..') || isAbsolute(rel)) {
    throw new UpstreamFailure(502, `the archive file must be inside the archive directory`)
  }
  let real: string
  let realRoot: string
  try {
    ;[real, realRoot] = await Promise.all([realpath(full), realpath(root)])
  } catch {
    throw new UpstreamFailure(502, `the archive file ${file} does not exist`)
  }
  const realRel = relative(realRoot, real)
  if (realRel.startsWith('..') || isAbsolute(realRel)) {
    throw new UpstreamFailure(502, `the archive file must be inside the archive directory`)
  }
  return real
}

/** Reads a local archive with positioned reads on one open file handle. */
class FileRangeReader implements PmtilesReader {
  private handle: Promise<FileHandle> | null = null
  constructor(
    private readonly ctx: KindContext,
    private readonly source: PmtilesSource,
  ) {}

  getKey(): string {
    return `file:${this.source.id}`
  }

  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    try {
      this.handle ??= archivePath(this.ctx.archiveDir, this.source.file ?? '').then((p) => open(p, 'r'))
      const fh = await this.handle.catch((e: unknown) => {
        this.handle = null
        throw e
      })
      const buf = Buffer.alloc(length)
      const { bytesRead } = await fh.read(buf, 0, length, offset)
      this.ctx.health.succeeded(this.source.id)
      return { data: arrayBuffer(buf.subarray(0, bytesRead)) }
    } catch (e) {
      this.ctx.health.failed(this.source.id, e instanceof Error ? e.message : String(e))
      throw e
    }
  }
}

const TILE_TYPES: Partial<Record<TileType, string>> = {
  [TileType.Mvt]: 'application/vnd.mapbox-vector-tile',
  [TileType.Png]: 'image/png',
  [TileType.Jpeg]: 'image/jpeg',
  [TileType.Webp]: 'image/webp',
  [TileType.Avif]: 'image/avif',
}

/** The archive reader of a pmtiles source (its header and directories are kept once read). */
export function pmtilesReader(ctx: KindContext, source: PmtilesSource): PMTiles {
  const reader =
    source.file !== undefined ? new FileRangeReader(ctx, source) : new UpstreamRangeReader(ctx, source)
  // ResolvedValueCache keeps only what was read successfully, so a failed read is retried next time.
  return new PMTiles(reader, new ResolvedValueCache(100, false, decompress), decompress)
}

/** `GET /api/sources/<id>/tiles/{z}/{x}/{y}`: the archive's tile, decompressed; 204 where it has none. */
export function pmtilesRoutes(app: FastifyInstance, ctx: KindContext, source: PmtilesSource): void {
  const archive = pmtilesReader(ctx, source)
  app.get<{ Params: TileParams }>(
    `/api/sources/${source.id}/tiles/:z/:x/:y`,
    { schema: { params: TILE_PARAMS_SCHEMA, querystring: noQuery }, logLevel: 'warn' },
    async (request, reply) => {
      const { z, x, y } = request.params
      const refused = refuseTileAddress(reply, source, z, x, y)
      if (refused) return refused
      try {
        const header = await archive.getHeader()
        const type = TILE_TYPES[header.tileType]
        if (type === undefined)
          throw new UpstreamFailure(502, `the archive's tile type ${header.tileType} is not served`)
        const tile = await archive.getZxy(z, x, y)
        reply.header('Cache-Control', 'private, max-age=60')
        if (!tile || tile.data.byteLength === 0) return reply.code(204).send()
        return reply.type(type).send(Buffer.from(tile.data))
      } catch (e) {
        return archiveError(request, reply, source, e)
      }
    },
  )
}
