import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { collectIconNames, iconNamesInSource, iconNamesInYaml, iconSubsetModule } from './iconSubset'

const known = new Set(['flash', 'log-out', 'cross', 'power'])
const isIcon = (name: string) => known.has(name)

describe('icon names', () => {
  it('takes quoted icon names from files that mention icons', () => {
    const text = `<Button icon="cross" />\nconst icons = { error: 'log-out', other: 'not-an-icon' }`
    expect(iconNamesInSource(text, isIcon)).toEqual(['cross', 'log-out'])
  })

  it('ignores files that never mention icons', () => {
    expect(iconNamesInSource(`const mode = 'power'`, isIcon)).toEqual([])
  })

  it('takes `icon:` values from YAML', () => {
    const yaml = `categories:\n  - { id: epss, icon: flash, row: 1 }\n  - { id: x, icon: 'power' }\n  - { id: y, icon: water-tower }`
    expect(iconNamesInYaml(yaml, isIcon)).toEqual(['flash', 'power'])
  })

  it('finds the icons the app names in its source and config', () => {
    const root = resolve(import.meta.dirname, '../../..')
    const names = collectIconNames({
      pathsDir: resolve(root, 'node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths'),
      srcDir: resolve(root, 'src'),
      configDir: resolve(root, 'config'),
    })
    // a sidebar category icon (config), a top-bar button and a toast icon (source)
    expect(names).toEqual(expect.arrayContaining(['flash', 'power', 'menu', 'more', 'tick-circle']))
    expect(names.length).toBeLessThan(200)
  })
})

describe('iconSubsetModule', () => {
  it('imports both sizes of every name and maps them by size', () => {
    const source = iconSubsetModule(['flash', 'log-out'], '/icons/generated')
    expect(source).toContain('import i16_0 from "/icons/generated/16px/paths/flash.js"')
    expect(source).toContain('import i20_1 from "/icons/generated/20px/paths/log-out.js"')
    expect(source).toContain(
      'export default { 16: { "flash": i16_0, "log-out": i16_1 }, 20: { "flash": i20_0, "log-out": i20_1 } }',
    )
  })
})
