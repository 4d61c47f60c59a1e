import fs from 'node:fs'
import type { Geometry } from 'geojson'
import type { FeedDefinition, FeedsConfig } from '../../shared/config'
import type { AppStore } from '../store/AppStore'
import type { Catalog } from '../store/catalog'
import { combineRows } from './combineRows'
import type { FeedRow } from './feedRow'
import { filterBox } from './feedSource'
import type { RunSummary } from './feedTypes'
import { FeedFormatError } from './FeedFormatError'
import { mapRecords } from './mapRecords'
import { parseFeed } from './parseFeed'
import { parseGeoJson } from './parseGeoJson'
import { readPath } from './readPath'

export interface ImportContext {
  store: AppStore
  config: FeedsConfig
  /** The run's clock (ms): retention windows are measured from it. */
  now: number
  /** Replaces the filter box (`--bbox`). */
  bbox?: readonly number[]
}

/** A run that failed: the message, with the summary of what was read when parsing got that far. */
export class FeedRunError extends Error {
  constructor(
    message: string,
    readonly summary: RunSummary | null,
  ) {
    super(message)
  }
}

function loadZones(feed: FeedDefinition): Map<string, Geometry> | null {
  const z = feed.geometry?.zones
  if (!z) return null
  const parsed = parseGeoJson(fs.readFileSync(z.file, 'utf8'))
  const zones = new Map<string, Geometry>()
  for (const r of parsed.records) {
    const id = readPath(r.props, z.idField)
    if (r.geometry && (typeof id === 'string' || typeof id === 'number')) zones.set(String(id), r.geometry)
  }
  return zones
}

/** A feed body parsed and mapped to rows, with the summary of what was read (no store involved). */
export interface MappedFeed {
  rows: FeedRow[]
  summary: RunSummary
}

type MapContext = Pick<ImportContext, 'config' | 'bbox'> & { catalog: Catalog }

/**
 * Parses and maps one body of a feed (the CPU-bound part of an import: a worker thread runs it
 * when the store has no file). Throws a FeedRunError when the body cannot be read or no record
 * could be mapped.
 */
export function mapFeedBody(ctx: MapContext, feed: FeedDefinition, text: string): MappedFeed {
  const dataset = ctx.catalog.datasets.find((d) => d.id === feed.dataset)
  if (!dataset) throw new FeedRunError(`unknown dataset '${feed.dataset}'`, null)
  let mapped: ReturnType<typeof mapRecords>
  try {
    mapped = mapRecords(parseFeed(feed, text), {
      feed,
      dataset,
      bbox: filterBox(ctx.config, feed, ctx.bbox),
      zones: loadZones(feed),
    })
  } catch (e) {
    throw new FeedRunError(
      e instanceof FeedFormatError
        ? e.message
        : `cannot read the feed: ${e instanceof Error ? e.message : String(e)}`,
      null,
    )
  }
  const summary: RunSummary = {
    feed: feed.id,
    dataset: feed.dataset,
    read: mapped.read,
    kept: 0,
    outsideTerritory: mapped.outsideTerritory,
    filteredOut: mapped.filteredOut,
    expired: 0,
    duplicates: mapped.duplicates,
    withoutGeometry: mapped.withoutGeometry,
    rejected: mapped.rejected,
    rejections: mapped.rejections,
    stored: 0,
    newest: null,
    notModified: false,
  }
  // Every record the filters kept was rejected (a source that changed its spelling): keep the old data.
  if (mapped.rejected > 0 && mapped.rows.length === 0)
    throw new FeedRunError(
      `no record could be mapped (${mapped.rejections[0]?.at ?? ''}: ${mapped.rejections[0]?.reason ?? ''}); the data is unchanged`,
      summary,
    )
  return { rows: mapped.rows, summary }
}

/**
 * Imports one body of a feed: parse, map, filter, combine with what the feed holds (merge) and
 * with the other feeds of the dataset, then replace the dataset through the store's staged write
 * (the same path as `npm run import`: written beside the live rows, swapped in one transaction,
 * version bumped) and record the feed's rows and freshness. Any failure throws and changes nothing.
 */
export async function importFeed(
  ctx: ImportContext,
  feed: FeedDefinition,
  text: string,
  meta: { source: string; etag: string | null; lastModified: string | null },
): Promise<RunSummary> {
  return storeMappedFeed(ctx, feed, mapFeedBody({ ...ctx, catalog: ctx.store.catalog }, feed, text), meta)
}

/** The store part of an import (see importFeed): a mapped body filtered, combined and written. */
export async function storeMappedFeed(
  ctx: ImportContext,
  feed: FeedDefinition,
  mapped: MappedFeed,
  meta: { source: string; etag: string | null; lastModified: string | null },
): Promise<RunSummary> {
  const { store, config, now } = ctx
  const dataset = store.dataset(feed.dataset)
  if (!dataset) throw new FeedRunError(`unknown dataset '${feed.dataset}'`, null)
  const feeds = store.feeds
  const fieldNames = dataset.fields.map((f) => f.name)
  const summary = mapped.summary
  let rows: FeedRow[] = mapped.rows
  const held = feed.mode === 'merge' ? await feeds.rows(feed.id, fieldNames) : []
  if (held.length > 0) {
    const byKey = new Map(held.map((r) => [r.key, r]))
    for (const r of rows) {
      if (byKey.has(r.key)) summary.duplicates++
      byKey.set(r.key, r)
    }
    rows = [...byKey.values()]
  }
  // Every mapped row is in `rows` (it replaces a held row of its key) unless it expired.
  summary.kept = mapped.rows.length
  if (feed.keepHours !== undefined && feed.time) {
    const cutoff = new Date(now - feed.keepHours * 3_600_000).toISOString()
    const live = (r: FeedRow) => r.time === null || r.time >= cutoff
    const before = rows.length
    rows = rows.filter(live)
    summary.expired = before - rows.length
    summary.kept = mapped.rows.reduce((n, r) => (live(r) ? n + 1 : n), 0)
  }
  summary.newest = rows.reduce<string | null>(
    (m, r) => (r.time !== null && (m === null || r.time > m) ? r.time : m),
    null,
  )

  const siblings = config.feeds.filter((f) => f.dataset === feed.dataset)
  const features = combineRows(
    dataset,
    await Promise.all(
      siblings.map(async (f) => ({
        feed: f,
        rows: f.id === feed.id ? rows : await feeds.rows(f.id, fieldNames),
      })),
    ),
  )
  summary.stored = await store.replaceDataset(dataset.id, features)
  await feeds.saveRun(feed.id, feed.dataset, rows, fieldNames, {
    source: meta.source,
    at: new Date(now).toISOString(),
    summary,
    etag: meta.etag,
    lastModified: meta.lastModified,
  })
  return summary
}
