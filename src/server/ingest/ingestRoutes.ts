import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { declareRoutes, sessionOf } from '../auth/routeAuth'
import { GridImportError, importableGrid, importGridFile } from '../grids/importGridFile'
import { HttpError } from '../http/httpErrors'
import { ingestJobsOf } from '../store/ingestJobsOf'
import type { IngestJob } from '../store/ingestJobStore'
import { featureSourceOf } from '../store/openStoreFile'
import { DatasetImporter } from './datasetImport'
import { gpkgToNdjson } from './gpkgToNdjson'
import { DATASET_FORMATS, formatOf, GRID_FORMATS, type BodyFormat } from './ingestFormats'
import { IngestJobRunner, JobFailure, ORPHANED, STALE_MS, type IngestTask } from './IngestJobRunner'
import { ingestLimits, type IngestLimits } from './ingestLimits'
import { jobView } from './jobView'
import { BodyRefused, receiveBody } from './receiveBody'

export interface IngestRoutesOptions {
  /** Limits over config/app.yaml `ingest` (tests). */
  limits?: Partial<IngestLimits>
  /** Where bodies wait for their job (default: the system's temporary directory). */
  tempDir?: string
}

/**
 * The body is the file itself, streamed to disk by the content-type parser above (never parsed here):
 * the schema says so and accepts the stream; the format comes from Content-Type.
 */
const streamedBody = {
  description: 'the data file itself (GeoJSON, NDJSON, CSV or GeoPackage; a raster for grids), streamed',
} as const

const idParams = {
  type: 'object',
  properties: { id: { type: 'string', pattern: '^[a-z][a-z0-9_]*$', maxLength: 64 } },
  required: ['id'],
  additionalProperties: false,
} as const

const datasetQuery = {
  type: 'object',
  properties: {
    mode: {
      type: 'string',
      enum: ['replace', 'merge'],
      default: 'replace',
      description: 'replace: the body becomes the dataset; merge: upsert by the dataset key',
    },
  },
  additionalProperties: false,
} as const

const gridQuery = {
  type: 'object',
  properties: {
    variable: { type: 'string', minLength: 1, maxLength: 128, description: 'NetCDF: the variable to read' },
    element: { type: 'string', minLength: 1, maxLength: 64, description: 'GRIB2: ELEMENT[:LEVEL]' },
    from: { type: 'string', minLength: 1, maxLength: 40, description: 'the first valid time to keep' },
    refTime: {
      type: 'string',
      minLength: 1,
      maxLength: 40,
      description: 'reference time when the file has none',
    },
  },
  additionalProperties: false,
} as const

const jobParams = {
  type: 'object',
  properties: { job: { type: 'string', pattern: '^ingest-[0-9a-f-]{36}$' } },
  required: ['job'],
  additionalProperties: false,
} as const

/** A line-numbered rejection in an importer's message (`line N: reason`). */
function rejectedOf(message: string): { line: number | null; reason: string }[] {
  const m = /^line (\d+): ([\s\S]*)$/.exec(message)
  return m ? [{ line: Number(m[1]), reason: m[2] as string }] : []
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/

/**
 * The ingestion API (issue #32 item 2, docs/ingest.md): `POST /api/ingest/datasets/<id>` and
 * `POST /api/ingest/grids/<id>` stream a body to a temporary file and answer `202 {job}`; the job
 * runs the import CLI's path (datasets: staging and swap in a worker thread; grids: importGridFile)
 * and `GET /api/ingest/jobs/<job>` tells how it went. Members need `data.import`, machine clients
 * the `data:write` scope.
 */
async function ingestPlugin(app: FastifyInstance, opts: IngestRoutesOptions): Promise<void> {
  declareRoutes(app, { auth: { permission: 'data.import' }, machineScope: 'data:write' })
  const limits = ingestLimits(opts.limits)
  const tempRoot = opts.tempDir ?? os.tmpdir()
  const jobs = ingestJobsOf(app.store)
  const runner = new IngestJobRunner(jobs, limits, (message, err) => app.log.warn({ err }, message))
  // Jobs left queued or running by a server that stopped are failed (their data never changed).
  await jobs.failStale(Date.now() - STALE_MS, ORPHANED, Date.now())
  const importer = new DatasetImporter()
  app.addHook('onClose', async () => {
    await runner.close()
    importer.close()
  })

  // Bodies are streams: handed to the route as they arrive, whatever their type (checked there).
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload))

  const audit = async (request: FastifyRequest, event: string, job: IngestJob, detail: object = {}) => {
    const machine = request.machine
    try {
      await app.store.members.audit({
        at: Date.now(),
        event,
        actorId: null,
        memberId: machine ? null : sessionOf(request).memberId,
        subject: `${job.kind}:${job.target}`,
        ip: request.ip,
        detail: {
          job: job.id,
          mode: job.mode,
          format: job.format,
          bytes: job.bytes,
          ...(machine ? { client: machine.clientId } : {}),
          ...detail,
        },
      })
    } catch (err) {
      app.log.warn({ err }, 'ingest: audit entry not written')
    }
  }

  /** Receives a body into a temporary file and stores its job (or answers the first one of its key). */
  async function accept(
    request: FastifyRequest,
    reply: FastifyReply,
    kind: IngestJob['kind'],
    target: string,
    mode: IngestJob['mode'],
    formats: Readonly<Record<string, BodyFormat>>,
    work: (job: IngestJob, file: string, dir: string) => IngestTask['run'],
  ): Promise<FastifyReply> {
    const format = formatOf(request.headers['content-type'], formats)
    if (!format)
      throw new HttpError(
        415,
        `Content-Type must be one of ${Object.keys(formats).join(', ')}`,
        'Content-Type',
      )
    const lengthHeader = request.headers['content-length']
    const declared = lengthHeader === undefined ? null : Number(lengthHeader)
    if (declared !== null && declared > limits.maxBodyBytes)
      throw new HttpError(
        413,
        `the body (${declared} bytes) is larger than the ${limits.maxBodyBytes} bytes an ingestion request may send (config/app.yaml ingest.maxBodyMegabytes)`,
        'Content-Length',
      )
    const keyHeader = request.headers['idempotency-key']
    const key = typeof keyHeader === 'string' ? keyHeader : null
    if (keyHeader !== undefined && (key === null || !IDEMPOTENCY_KEY.test(key)))
      throw new HttpError(400, 'Idempotency-Key must be 1 to 255 visible ASCII characters', 'Idempotency-Key')
    const slot = runner.reserve()
    if (!slot) {
      reply.header('retry-after', '30')
      throw new HttpError(
        429,
        `this server already has ${limits.maxConcurrentJobs + limits.maxQueuedJobs} ingestion jobs running or queued; retry later`,
      )
    }
    const dir = await mkdtemp(path.join(tempRoot, 'emberline-ingest-'))
    const drop = (): void => fs.rmSync(dir, { recursive: true, force: true })
    try {
      const file = path.join(dir, `body${format.ext}`)
      let received: { bytes: number; sha256: string }
      try {
        received = await receiveBody(request.body as Readable, file, limits.maxBodyBytes, declared)
      } catch (err) {
        if (err instanceof BodyRefused)
          throw new HttpError(err.statusCode, err.message, err.statusCode === 413 ? 'Content-Length' : 'body')
        throw err
      }
      const now = Date.now()
      const machine = request.machine
      const job: IngestJob = {
        id: `ingest-${randomUUID()}`,
        kind,
        target,
        mode,
        format: format.format,
        status: 'queued',
        bytes: received.bytes,
        bodySha256: received.sha256,
        idempotencyKey: key,
        requestedBy: machine ? `m2m:${machine.clientId}` : sessionOf(request).memberId,
        progress: 0,
        summary: null,
        error: null,
        createdAt: now,
        startedAt: null,
        finishedAt: null,
        heartbeatAt: now,
      }
      const stored = await jobs.create(job)
      if (!stored.created) {
        drop()
        const first = stored.job
        if (
          first.bodySha256 !== job.bodySha256 ||
          first.kind !== kind ||
          first.target !== target ||
          first.mode !== mode
        )
          throw new HttpError(
            422,
            `Idempotency-Key ${key} was already used for a different request (job ${first.id})`,
            'Idempotency-Key',
          )
        return reply
          .code(202)
          .header('idempotent-replayed', 'true')
          .header('location', `/api/ingest/jobs/${first.id}`)
          .send({ job: first.id, status: first.status })
      }
      const run = work(job, file, dir)
      runner.submit({
        job,
        run: async (onProgress, signal) => {
          try {
            const summary = await run(onProgress, signal)
            await audit(request, 'ingest.succeeded', job, summary)
            return summary
          } catch (err) {
            await audit(request, 'ingest.failed', job, {
              error: err instanceof Error ? err.message : String(err),
            })
            throw err
          }
        },
        cleanup: drop,
      })
      await audit(request, 'ingest.accepted', job)
      return reply
        .code(202)
        .header('location', `/api/ingest/jobs/${job.id}`)
        .send({ job: job.id, status: job.status })
    } catch (err) {
      drop()
      throw err
    } finally {
      slot.release()
    }
  }

  app.post<{ Params: { id: string }; Querystring: { mode: 'replace' | 'merge' } }>(
    '/api/ingest/datasets/:id',
    { schema: { params: idParams, querystring: datasetQuery, body: streamedBody } },
    async (request, reply) => {
      const { id } = request.params
      const d = app.store.dataset(id)
      if (!d) throw new HttpError(404, `no dataset '${id}'`, 'id')
      const { mode } = request.query
      if (mode === 'merge' && !d.key)
        throw new HttpError(400, `dataset ${id} declares no key field, so it can only be replaced`, 'mode')
      const source = featureSourceOf(app.store)
      if (!source)
        throw new HttpError(409, 'this server has no store file or database a worker can write to', 'id')
      return accept(
        request,
        reply,
        'dataset',
        id,
        mode,
        DATASET_FORMATS,
        (job, body, dir) => async (onProgress, signal) => {
          try {
            const file = job.format === 'gpkg' ? await gpkgToNdjson(body, dir) : body
            const r = await importer.run(
              { source, catalog: app.store.catalog, dataset: id, file, mode },
              onProgress,
              signal,
            )
            await app.store.datasetReplaced(id)
            return {
              kept: r.kept,
              rejected: [],
              ...(r.replacedKeys === null ? {} : { keys: r.replacedKeys }),
              tileData: r.tiles !== null,
            }
          } catch (err) {
            const message = err instanceof Error ? err.message : String(err)
            throw new JobFailure(`${id} unchanged: ${message}`, { kept: 0, rejected: rejectedOf(message) })
          }
        },
      )
    },
  )

  app.post<{
    Params: { id: string }
    Querystring: { variable?: string; element?: string; from?: string; refTime?: string }
  }>(
    '/api/ingest/grids/:id',
    { schema: { params: idParams, querystring: gridQuery, body: streamedBody } },
    async (request, reply) => {
      const { id } = request.params
      if (!importableGrid(id)) throw new HttpError(404, `no grid '${id}'`, 'id')
      const { variable, element, from, refTime } = request.query
      return accept(request, reply, 'grid', id, 'replace', GRID_FORMATS, (job, file) => async () => {
        try {
          const summary = await importGridFile(app.store, id, file, {
            source: `ingest:${job.id}`,
            ...(variable ? { variable } : {}),
            ...(element ? { element } : {}),
            ...(from ? { from } : {}),
            ...(refTime ? { refTime } : {}),
          })
          return { ...summary }
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err)
          const parameter = err instanceof GridImportError ? (err.parameter ?? null) : null
          throw new JobFailure(`${id} unchanged: ${message}`, { rejected: [], parameter })
        }
      })
    },
  )

  app.get<{ Params: { job: string } }>(
    '/api/ingest/jobs/:job',
    { schema: { params: jobParams } },
    async (request, reply) => {
      let job = await jobs.get(request.params.job)
      if (
        job &&
        (job.status === 'queued' || job.status === 'running') &&
        job.heartbeatAt < Date.now() - STALE_MS
      ) {
        await jobs.failStale(Date.now() - STALE_MS, ORPHANED, Date.now())
        job = await jobs.get(request.params.job)
      }
      if (!job) throw new HttpError(404, `no ingestion job '${request.params.job}'`, 'job')
      return reply.header('cache-control', 'no-store').send(jobView(job))
    },
  )
}

export { ingestPlugin as ingestRoutes }
