import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { compileConfig } from '../../scripts/config/compileConfig'
import { layersConfig } from '../../src/shared/config'

// Each `# example: <kind>` block of docs/external-layers.md, its lists appended to those of
// config/layers.yaml, compiles without a problem (what the page promises the analyst).
const root = path.resolve(import.meta.dirname, '../..')
const page = fs.readFileSync(path.join(root, 'docs/external-layers.md'), 'utf8')
const examples = [...page.matchAll(/```yaml\n# example: ([a-z-]+)\n([\s\S]*?)```/g)].map((m) => ({
  kind: m[1]!,
  text: m[2]!,
}))

function withExample(text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-external-'))
  for (const f of fs.readdirSync(path.join(root, 'config'))) {
    fs.copyFileSync(path.join(root, 'config', f), path.join(dir, f))
  }
  const layers = parse(fs.readFileSync(path.join(dir, 'layers.yaml'), 'utf8')) as Record<string, unknown[]>
  const tables = parse(fs.readFileSync(path.join(dir, 'tables.yaml'), 'utf8')) as Record<string, unknown[]>
  const example = parse(text) as Record<string, unknown[]>
  for (const [key, items] of Object.entries(example)) {
    // A `tables` entry goes to config/tables.yaml, everything else to config/layers.yaml.
    const file = key === 'tables' ? tables : layers
    file[key] = [...(file[key] ?? []), ...items]
  }
  fs.writeFileSync(path.join(dir, 'layers.yaml'), stringify(layers))
  fs.writeFileSync(path.join(dir, 'tables.yaml'), stringify(tables))
  return dir
}

describe('docs/external-layers.md examples', () => {
  it('has one example for xyz and one for wms', () => {
    expect(examples.map((e) => e.kind)).toEqual(expect.arrayContaining(['xyz', 'wms']))
    // The feature services, each with its table where it can have one.
    const kinds = examples.map((e) => e.kind)
    for (const kind of ['arcgis-featureserver', 'ogc-features', 'geojson', 'wmts', 'arcgis-mapserver', 'tilejson', 'pmtiles', 'cog'])
      expect(kinds).toContain(kind)
    for (const e of examples.filter((x) => x.kind === 'arcgis-featureserver' || x.kind === 'ogc-features')) {
      expect(e.text, e.kind).toMatch(/^tables:/m)
    }
  })

  it.each(examples)('the $kind example validates when appended to config/layers.yaml', ({ kind, text }) => {
    const dir = withExample(text)
    try {
      const result = compileConfig(dir)
      expect(result.errors).toEqual([])
      expect(result.ok).toBe(true)
      if (!result.ok) return
      // One more source of the kind than config/layers.yaml ships (its utility_gis_* sources).
      const shipped = layersConfig.sources.filter((s) => s.type === kind).length
      const sources = result.config.layers.sources.filter((s) => s.type === kind)
      expect(sources).toHaveLength(shipped + 1)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
