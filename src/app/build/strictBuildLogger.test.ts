import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { build, loadConfigFromFile, type InlineConfig } from 'vite'
import { strictBuildLogger } from './strictBuildLogger'

const roots: string[] = []
afterAll(() => roots.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })))

/** A throw-away project: index.html loading main.js, plus the given modules. */
function project(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-strict-build-'))
  roots.push(root)
  const all = { 'index.html': '<script type="module" src="./main.js"></script>', ...files }
  for (const [name, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true })
    fs.writeFileSync(path.join(root, name), text)
  }
  return root
}

const buildOf = (root: string, extra: InlineConfig = {}) =>
  build({
    configFile: false,
    root,
    logLevel: 'warn',
    customLogger: strictBuildLogger(),
    build: { outDir: path.join(root, 'dist'), emptyOutDir: true, ...extra.build },
  })

// The shape the app had (#29): a feature's index re-exports its screen; the screen imports a second
// feature's index, which statically re-exports a lazily loaded panel that imports the first index.
const reexportCycle = {
  'main.js': "import('./risk.js').then((m) => m.run()); import('./briefing.js').then((m) => m.run())",
  'risk.js': "import { MapScreen } from './map/index.js'\nexport const run = () => MapScreen('risk')",
  'briefing.js': "import { MapScreen } from './map/index.js'\nexport const run = () => MapScreen('briefing')",
  'map/index.js':
    "export { MapScreen } from './MapScreen.js'\nexport { useHighlighter } from './highlighter.js'",
  'map/highlighter.js': 'export const useHighlighter = () => globalThis.location?.href',
  'map/MapScreen.js': [
    "import { useTables } from '../tables/index.js'",
    "export function MapScreen(name) { useTables(); return import('../tables/Panel.js').then((m) => m.Panel(name)) }",
  ].join('\n'),
  'tables/index.js': "export { Panel } from './Panel.js'\nexport const useTables = () => 1",
  'tables/Panel.js':
    "import { useHighlighter } from '../map/index.js'\nexport const Panel = (n) => [n, useHighlighter()]",
}

describe('strictBuildLogger', () => {
  it('fails the build on the MapScreen re-export cycle warning', async () => {
    await expect(buildOf(project(reexportCycle))).rejects.toThrow(
      /fails on warnings[\s\S]*reexported through module "[^"]*map\/index\.js"/,
    )
  })

  it('fails the build on a warning of Vite itself (chunk size)', async () => {
    const root = project({ 'main.js': `console.log(${JSON.stringify('x'.repeat(4000))})` })
    await expect(buildOf(root, { build: { chunkSizeWarningLimit: 1 } })).rejects.toThrow(
      /fails on warnings[\s\S]*Some chunks are larger than 1 kB/,
    )
  })

  it('builds a project without warnings, the cycle broken as in the app', async () => {
    // the second index no longer re-exports the lazily loaded panel
    const root = project({ ...reexportCycle, 'tables/index.js': 'export const useTables = () => 1' })
    await expect(buildOf(root)).resolves.toBeDefined()
  })

  it('is the logger of the app build (vite.config.ts), not of the dev server', async () => {
    const configFile = path.resolve(import.meta.dirname, '../../../vite.config.ts')
    const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, configFile)
    expect(() => loaded?.config.customLogger?.warn('a warning')).toThrow(/fails on warnings/)
    const served = await loadConfigFromFile({ command: 'serve', mode: 'development' }, configFile)
    expect(served?.config.customLogger).toBeUndefined()
  })
})
