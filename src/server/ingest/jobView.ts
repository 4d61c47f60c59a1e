import type { IngestJob } from '../store/ingestJobStore'

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())

/** GET /api/ingest/jobs/<job>: a job as its sender reads it (docs/ingest.md "Job states"). */
export function jobView(job: IngestJob) {
  return {
    job: job.id,
    status: job.status,
    [job.kind]: job.target,
    mode: job.mode,
    format: job.format,
    bytes: job.bytes,
    progress: { done: job.progress, unit: job.kind === 'dataset' ? 'features' : 'bands' },
    summary: job.summary,
    error: job.error,
    createdAt: iso(job.createdAt),
    startedAt: iso(job.startedAt),
    finishedAt: iso(job.finishedAt),
  }
}
