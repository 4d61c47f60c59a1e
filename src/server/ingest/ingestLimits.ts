import { appConfig } from '../../shared/config'

export interface IngestLimits {
  /** Most bytes one request may send. */
  maxBodyBytes: number
  maxConcurrentJobs: number
  maxQueuedJobs: number
}

/** config/app.yaml `ingest` (docs/ingest.md), with `override` (tests) on top. */
export function ingestLimits(override: Partial<IngestLimits> = {}): IngestLimits {
  const c = appConfig.ingest
  return {
    maxBodyBytes: (c?.maxBodyMegabytes ?? 4096) * 1024 * 1024,
    maxConcurrentJobs: c?.maxConcurrentJobs ?? 1,
    maxQueuedJobs: c?.maxQueuedJobs ?? 4,
    ...override,
  }
}
