// npm run export -- pmtiles <dataset|source> <file.pmtiles> [--data-dir DIR] [--config DIR]
// Writes a dataset's tile archive (its source's minzoom to z14, the tiles the server serves) as a
// PMTiles v3 file — gzip MVT, deduplicated, clustered — for a CDN or any PMTiles reader
// (protomaps-leaflet, the pmtiles package, Emberline's own `pmtiles` source kind).
// STORE=postgres with DATABASE_URL exports the shared archive the leader rendered.
import path from 'node:path'
import { serverSettings } from '../src/server/appSettings'
import { defaultCatalog } from '../src/server/store/catalog'
import { loadCatalog } from '../src/server/store/loadCatalog'
import { openAppStoreOrExit } from '../src/server/store/openAppStore'
import { ExportError, exportPmtiles, exportSource } from '../src/server/tiles/exportPmtiles'

const USAGE =
  'usage: npm run export -- pmtiles <dataset|source> <file.pmtiles> [--data-dir DIR] [--config DIR]'
const argv = process.argv.slice(2)
const options = new Map<string, string>()
const positional: string[] = []
for (let i = 0; i < argv.length; i++) {
  const a = argv[i] as string
  if (a === '--data-dir' || a === '--config') options.set(a.slice(2), argv[++i] ?? '')
  else if (a.startsWith('--')) {
    console.error(`unknown option ${a}\n${USAGE}`)
    process.exit(2)
  } else positional.push(a)
}
const [format, id, file] = positional
if (format !== 'pmtiles' || !id || !file || positional.length > 3) {
  console.error(format && format !== 'pmtiles' ? `unknown format '${format}' (pmtiles)\n${USAGE}` : USAGE)
  process.exit(2)
}
const configDir = options.get('config') ?? process.env.CONFIG_DIR
const catalog = configDir ? loadCatalog(path.resolve(configDir)) : defaultCatalog()
try {
  exportSource({ catalog }, id)
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e))
  process.exit(2)
}

const t0 = performance.now()
const opened = await openAppStoreOrExit(process.env, catalog, { dataDir: options.get('data-dir') })
try {
  const out = await exportPmtiles(opened.store, id, path.resolve(file), serverSettings().tiles)
  console.log(
    `wrote ${file}: ${out.source} z${out.minZoom}-${out.maxZoom}, version ${out.version} (${out.from}), ` +
      `${out.addressed} tiles, ${out.contents} distinct, ${out.entries} entries, ${out.leaves} leaf directories, ` +
      `${(out.bytes / 1024 / 1024).toFixed(1)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  )
} catch (e) {
  console.error(`export failed: ${e instanceof Error ? e.message : String(e)}`)
  process.exitCode = e instanceof ExportError ? 2 : 1
} finally {
  await opened.store.close()
}
