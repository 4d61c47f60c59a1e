// Worker thread of importDatasetInWorker (datasetImport.ts): the import CLI's path, off the
// server's event loop, on a store connection of its own.
import { parentPort } from 'node:worker_threads'
import { filterableFields, mustDataset, type DatasetDef } from '../store/catalog'
import { readFeatures } from '../store/readFeatures'
import { keyOf, pgRowsExcept, sqliteRowsExcept } from '../store/mergeRows'
import { importEncodedRows, openStoreFile } from '../store/openStoreFile'
import { pgDatabase } from '../store/pg/pgDatabase'
import { openPgStore } from '../store/pg/pgStore'
import { encodeFeature, type EncodedRow, type ReplaceOptions } from '../store/writeDataset'
import { aggregateZooms } from '../tiles/tilePolicy'
import { saveTileData } from '../tiles/saveTileData'
import type { DatasetImportInput, DatasetImportMessage } from './datasetImport'

/**
 * Bodies are parsed in this thread (the CLI's --inline path), never by a second import worker as
 * `npm run import` does for large files: a worker thread of the server (its own V8 heap and tsx
 * loader) costs ~100 MiB of the server's resident set for the length of the job, which would break
 * the bound on a server's memory during an ingestion (< 200 MB, tests/api/ingest-scale.test.ts).
 * The server's own thread only relays progress, so the inserts do not compete with requests.
 */

function* encodedInline(file: string, d: DatasetDef): Generator<EncodedRow> {
  for (const f of readFeatures(file)) yield encodeFeature(d, f)
}
const post = (m: DatasetImportMessage): void => parentPort?.postMessage(m)

/** The incoming rows, each key noted (merge), then the live rows with other keys. */
function* mergedSync(
  incoming: Iterable<EncodedRow>,
  keyAt: number,
  keys: Set<string>,
  rest: () => Iterable<EncodedRow>,
): Generator<EncodedRow> {
  for (const r of incoming) {
    const k = keyOf(r.values, keyAt)
    if (k !== null) keys.add(k)
    yield r
  }
  yield* rest()
}

async function* mergedAsync(
  incoming: Iterable<EncodedRow>,
  keyAt: number,
  keys: Set<string>,
  rest: () => AsyncIterable<EncodedRow>,
): AsyncGenerator<EncodedRow> {
  for (const r of incoming) {
    const k = keyOf(r.values, keyAt)
    if (k !== null) keys.add(k)
    yield r
  }
  yield* rest()
}

function keyIndex(d: DatasetDef): number {
  const at = d.fields.findIndex((f) => f.name === d.key)
  if (at < 0) throw new Error(`dataset ${d.id} declares no key field: merge is not possible`)
  return at
}

async function run(input: DatasetImportInput): Promise<DatasetImportMessage> {
  const { catalog, source, mode } = input
  const d = mustDataset(catalog, input.dataset)
  const aggZooms = aggregateZooms(catalog.sources, d)
  const indexFields = [...filterableFields(catalog, d.id).values()]
  const parsed = { rows: encodedInline(input.file, d), precomputed: undefined }
  const merge = mode === 'merge'
  const keyAt = merge ? keyIndex(d) : -1
  const keys = new Set<string>()
  let last = 0
  const options: ReplaceOptions = {
    aggZooms,
    indexFields,
    onProgress: (done) => {
      if (done - last >= 10_000 || done < last) post({ kind: 'progress', done })
      last = done
    },
    // A merge's rows are not all the worker's: the store counts cells and index itself.
    ...(merge || !parsed.precomputed ? {} : { precomputed: parsed.precomputed }),
  }
  if ('file' in source) {
    const file = source.file
    const store = openStoreFile(file, catalog)
    try {
      const rows = merge
        ? mergedSync(parsed.rows, keyAt, keys, () => sqliteRowsExcept(file, d, keyAt, keys))
        : parsed.rows
      const kept = importEncodedRows(store, d, rows, options)
      const saved = await saveTileData(store, d.id)
      return { kind: 'done', kept, replacedKeys: merge ? keys.size : null, tiles: saved?.file ?? null }
    } finally {
      store.close()
    }
  }
  const store = await openPgStore(source.pgUrl, catalog, { max: 2, applicationName: 'emberline-ingest' })
  const reader = merge
    ? pgDatabase({ url: source.pgUrl, max: 1, applicationName: 'emberline-ingest-merge' })
    : null
  try {
    const rows = reader
      ? mergedAsync(parsed.rows, keyAt, keys, () => pgRowsExcept(reader, d, keyAt, keys))
      : parsed.rows
    const kept = await store.importEncodedRows(d, rows, options)
    return { kind: 'done', kept, replacedKeys: merge ? keys.size : null, tiles: null }
  } finally {
    await reader?.close()
    await store.close()
  }
}

// One job at a time: the server posts the next only after this one's answer.
parentPort?.on('message', (input: DatasetImportInput) => {
  run(input).then(post, (e: unknown) =>
    post({ kind: 'error', message: e instanceof Error ? e.message : String(e) }),
  )
})
