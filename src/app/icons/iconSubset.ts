// Build-time (Node) part of the icon subset: which Blueprint icons the app can name.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/** Icon-name-shaped string literals ('flash', "log-out") and YAML `icon: name` values. */
const QUOTED = /['"]([a-z][a-z0-9]*(?:-[a-z0-9]+)*)['"]/g
const YAML_ICON = /\bicon:\s*['"]?([a-z][a-z0-9]*(?:-[a-z0-9]+)*)/g

/** Names in `text` that `isIcon` accepts: every quoted literal of a file that talks about icons. */
export function iconNamesInSource(text: string, isIcon: (name: string) => boolean): string[] {
  if (!/icon/i.test(text)) return []
  return [...text.matchAll(QUOTED)].map((m) => m[1] ?? '').filter(isIcon)
}

/** `icon:` values of a YAML file that `isIcon` accepts (category icons and the like). */
export function iconNamesInYaml(text: string, isIcon: (name: string) => boolean): string[] {
  return [...text.matchAll(YAML_ICON)].map((m) => m[1] ?? '').filter(isIcon)
}

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, keep))
    else if (keep(path)) out.push(path)
  }
  return out
}

export interface IconSubsetInputs {
  /** Folder of the icons package's 16px path modules (one `<name>.js` per icon). */
  readonly pathsDir: string
  readonly srcDir: string
  readonly configDir: string
}

/** Sorted icon names the source (tests and generated code excluded) and the config YAML can name. */
export function collectIconNames({ pathsDir, srcDir, configDir }: IconSubsetInputs): string[] {
  const isIcon = (name: string) => existsSync(join(pathsDir, `${name}.js`))
  const names = new Set<string>()
  const sources = filesUnder(
    srcDir,
    (p) => /\.tsx?$/.test(p) && !/\.test\.tsx?$/.test(p) && !relative(srcDir, p).startsWith('generated'),
  )
  for (const file of sources)
    for (const n of iconNamesInSource(readFileSync(file, 'utf8'), isIcon)) names.add(n)
  for (const file of filesUnder(configDir, (p) => p.endsWith('.yaml')))
    for (const n of iconNamesInYaml(readFileSync(file, 'utf8'), isIcon)) names.add(n)
  return [...names].sort()
}

/** Source of the virtual module: `{ 16: { name: paths }, 20: { name: paths } }` for the named icons. */
export function iconSubsetModule(names: readonly string[], generatedDir: string): string {
  const lines: string[] = []
  const entries: Record<number, string[]> = { 16: [], 20: [] }
  names.forEach((name, i) => {
    for (const size of [16, 20]) {
      const id = `i${size}_${i}`
      lines.push(`import ${id} from ${JSON.stringify(`${generatedDir}/${size}px/paths/${name}.js`)}`)
      entries[size]?.push(`${JSON.stringify(name)}: ${id}`)
    }
  })
  lines.push(`export default { 16: { ${entries[16]?.join(', ')} }, 20: { ${entries[20]?.join(', ')} } }`)
  return lines.join('\n')
}
