import fs from 'node:fs'
import path from 'node:path'
import { CONFIG_FILES, readSchema } from './schemaValidate'

type Json = { [k: string]: unknown }
const outFile = path.resolve(import.meta.dirname, '../../docs/config-reference.md')

const anchor = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
const esc = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** Renders one schema file as reference sections, following $refs to titled definitions. */
class SchemaPage {
  private readonly defs: Record<string, Json>
  private readonly queue: Json[] = []
  private readonly done = new Set<string>()
  private readonly usedAt = new Map<string, string>()
  constructor(
    private readonly schema: Json,
    private readonly file: string,
  ) {
    this.defs = (schema.definitions ?? {}) as Record<string, Json>
  }

  private deref(node: Json): Json {
    if (typeof node.$ref !== 'string') return node
    const target = this.defs[node.$ref.replace('#/definitions/', '')] ?? {}
    const { $ref: _ref, ...rest } = node
    return { ...this.deref(target), ...rest, title: target.title ?? this.deref(target).title }
  }

  private isSection(node: Json): boolean {
    return typeof node.title === 'string' && (node.type === 'object' || Array.isArray(node.oneOf))
  }

  /** The "Type" cell: a link for sections, otherwise a short type expression. */
  typeOf(raw: Json, at: string): string {
    const node = this.deref(raw)
    if (this.isSection(node)) {
      const title = String(node.title)
      if (!this.done.has(title)) {
        this.queue.push(node)
        this.usedAt.set(title, at)
      }
      this.done.add(title)
      return `[${title}](#${anchor(title)})`
    }
    if (Array.isArray(node.enum)) return `one of ${node.enum.map((v) => `\`${String(v)}\``).join(', ')}`
    if (node.const !== undefined) return `\`${JSON.stringify(node.const)}\``
    if (node.type === 'array') return `list of ${this.typeOf((node.items ?? {}) as Json, `${at}[]`)}`
    if (Array.isArray(node.anyOf)) return (node.anyOf as Json[]).map((n) => this.typeOf(n, at)).join(' or ')
    if (node.type === 'object' && node.additionalProperties && typeof node.additionalProperties === 'object') {
      return `map of name → ${this.typeOf(node.additionalProperties as Json, `${at}.<name>`)}`
    }
    const type = Array.isArray(node.type) ? node.type.join(' or ') : String(node.type ?? 'any')
    return type
  }

  constraints(raw: Json): string {
    const n = this.deref(raw)
    const out: string[] = []
    if (typeof n.pattern === 'string') out.push(`pattern \`${n.pattern}\``)
    if (n.minimum !== undefined) out.push(`≥ ${String(n.minimum)}`)
    if (n.exclusiveMinimum !== undefined) out.push(`> ${String(n.exclusiveMinimum)}`)
    if (n.maximum !== undefined) out.push(`≤ ${String(n.maximum)}`)
    if (n.minItems !== undefined) out.push(`at least ${String(n.minItems)} item(s)`)
    if (n.maxItems !== undefined) out.push(`at most ${String(n.maxItems)} item(s)`)
    if (n.minLength !== undefined) out.push('not empty')
    const items = n.items as Json | undefined
    if (n.type === 'array' && items && !this.isSection(this.deref(items))) {
      const inner = this.constraints(items)
      if (inner) out.push(`each: ${inner}`)
    }
    return out.join('; ')
  }

  private table(node: Json, at: string): string[] {
    const props = (node.properties ?? {}) as Record<string, Json>
    const required = new Set((node.required ?? []) as string[])
    const rows = Object.entries(props).map(([key, raw]) => {
      const desc = String(raw.description ?? this.deref(raw).description ?? '')
      const need = required.has(key) ? 'yes' : raw.default !== undefined ? `no (default \`${JSON.stringify(raw.default)}\`)` : 'no'
      return `| \`${key}\` | ${esc(this.typeOf(raw, at ? `${at}.${key}` : key))} | ${esc(need)} | ${esc(desc)} | ${esc(this.constraints(raw))} |`
    })
    if (rows.length === 0) return []
    return ['| Property | Type | Required | Description | Constraints |', '|---|---|---|---|---|', ...rows]
  }

  private section(node: Json): string[] {
    const title = String(node.title)
    const at = this.usedAt.get(title) ?? ''
    const lines = [`### ${title}`, '', String(node.description ?? ''), '', `At \`${at}\` in ${this.file}.`, '']
    if (Array.isArray(node.oneOf)) {
      const variants = (node.oneOf as Json[]).map((v) => this.typeOf(v, at))
      lines.push(`One of (chosen by \`type\`): ${variants.join(', ')}.`, '')
    } else if (node.additionalProperties && typeof node.additionalProperties === 'object') {
      const extra = node.properties ? 'Besides the keys below, any' : 'Any'
      lines.push(`${extra} key is allowed; each value is ${this.typeOf(node.additionalProperties as Json, `${at}.<name>`)}.`, '')
    }
    lines.push(...this.table(node, at), '')
    return lines
  }

  render(): string[] {
    const root = this.schema
    const lines = [`## ${this.file}`, '', String(root.description ?? ''), '', ...this.table(root, ''), '']
    this.done.add(String(root.title))
    while (this.queue.length > 0) {
      const next = this.queue.shift()
      if (next) lines.push(...this.section(next))
    }
    return lines
  }
}

/** docs/config-reference.md, generated from the descriptions in schema/*.schema.json. */
export function renderConfigReference(): string {
  const lines = [
    '# Configuration reference',
    '',
    '<!-- Generated by scripts/config/configReference.ts from schema/*.schema.json — do not edit; run `npm run config:docs`. -->',
    '',
    'Everything Emberline draws, lists and says is configured in six YAML files under `config/`. Each file is',
    'checked against its JSON Schema in `schema/` (editors with the YAML language server complete and check as you',
    'type) and then by `npm run validate-config`, which also checks that every id, colour, field and icon a file',
    'refers to exists. This page lists every section and property.',
    '',
    'Beyond the schemas, `npm run validate-config` checks that:',
    '',
    '- ids are unique per kind (layers, map layers, sources, datasets, grids, legends, scales, categories, tables;',
    '  sub-layers within a layer; fields within a dataset; columns within a table);',
    '- every reference resolves: category, table, map layer, sub-layer (`selectedSubLayer`), source, dataset, grid,',
    '  legend, scale, panel text, icon (legend icons are declared under `icons.types`; category icons are Blueprint',
    '  icon names) and colour (`#rrggbb`, `#rrggbbaa` or a theme name such as `fireIntensity.high` or `smoke.6`);',
    '- table columns name fields of the table\'s dataset (or `bbox`, the zoom-to action) with a matching type;',
    '  popup fields, filters, paint rules and scales name fields of the map layer\'s dataset;',
    '- gradient stops and class values are strictly ascending; scale steps are ordered; risk labels descend;',
    '- 0 ≤ minzoom ≤ maxzoom ≤ 22; a paint kind fits its source kind (vector paints on `mvt`, `raster` on `png`,',
    '  `particles` on `wind`); `mvt` sources name a dataset and `png` sources a grid;',
    '- a table\'s layer exists and that layer\'s `table` points back; the layers in `layersWithoutTable` have no',
    '  table and every other layer has one.',
    '- feeds (`config/feeds.yaml`, optional) write datasets of layers.yaml; every mapped field is a field of the',
    '  dataset with a type the mapping fits; merge feeds have a key and a retention window; CSV feeds name their',
    '  coordinate columns; a source is a URL or a file (see docs/feeds.md).',
    '- the fire consequence run (`config/fire.yaml`, optional) ignites line datasets by a field they have; its',
    '  assets, output datasets and grids are in layers.yaml, output fields have the type the run writes, and an',
    '  `hourly` output writes a grid declared hourly (see docs/fire.md).',
    '',
    'Problems are printed one per line as `config/<file>.yaml:LINE:COL  <path in document>  <message>`.',
    'Reference checks run once every file matches its schema.',
    '',
    ...CONFIG_FILES.map((n) => `- [config/${n}.yaml](#config${n}yaml)`),
    '',
  ]
  for (const name of CONFIG_FILES) lines.push(...new SchemaPage(readSchema(name), `config/${name}.yaml`).render())
  return lines.join('\n').replace(/\n{3,}/g, '\n\n')
}

export async function writeConfigReference(): Promise<void> {
  const text = renderConfigReference()
  fs.mkdirSync(path.dirname(outFile), { recursive: true })
  if (!fs.existsSync(outFile) || fs.readFileSync(outFile, 'utf8') !== text) fs.writeFileSync(outFile, text)
}
