import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { catalogFrom, type Catalog } from './catalog'

/**
 * Reads a catalog from a config directory (layers.yaml with datasets and sources, optional
 * tables.yaml): how the import CLI and benchmark server use a config other than the built one.
 */
export function loadCatalog(dir: string): Catalog {
  const read = (name: string): unknown => {
    const file = path.join(dir, name)
    return fs.existsSync(file) ? parse(fs.readFileSync(file, 'utf8')) : {}
  }
  if (!fs.existsSync(path.join(dir, 'layers.yaml'))) throw new Error(`config: ${dir}/layers.yaml not found`)
  return catalogFrom(read('layers.yaml'), read('tables.yaml'))
}
