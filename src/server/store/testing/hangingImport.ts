// Test helper process: opens the store in argv[2] and starts replacing `buildings`; after the
// first committed batches it prints "filling" and hangs (a live import), until the test kills it.
import { defaultCatalog } from '../catalog'
import { openStore } from '../sqliteStore'
import type { FeatureInput } from '../writeDataset'

const store = openStore(process.argv[2] as string, defaultCatalog())

function* features(): Generator<FeatureInput> {
  for (let i = 0; ; i++) {
    if (i === 60_000) {
      // Hang between two of the replacement's write transactions (where a slow import spends the
      // time the others need the write lock), its first batches committed.
      store.db.exec('COMMIT')
      process.stdout.write('filling\n')
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600_000)
      store.db.exec('BEGIN IMMEDIATE')
    }
    const lon = -106 + (i % 1000) * 0.001
    const lat = 35 + Math.floor(i / 1000) * 0.001
    const ring = [
      [lon, lat],
      [lon + 0.0005, lat],
      [lon + 0.0005, lat + 0.0005],
      [lon, lat],
    ]
    yield { geometry: { type: 'Polygon', coordinates: [ring] }, properties: { area_ft2: i } }
  }
}

store.replaceDataset('buildings', features())
