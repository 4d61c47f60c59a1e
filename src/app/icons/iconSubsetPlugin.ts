// Vite plugin: `virtual:icon-subset` holds the SVG paths of only the icons the app names.
import { dirname, resolve } from 'node:path'
import { createRequire } from 'node:module'
import type { Plugin } from 'vite'
import { collectIconNames, iconSubsetModule } from './iconSubset'

const VIRTUAL_ID = 'virtual:icon-subset'
const RESOLVED_ID = `\0${VIRTUAL_ID}`

/**
 * Blueprint's default icon loader fetches every icon of a size in one ~100 KB (gzip) chunk. This
 * plugin builds a small module with the icons named in src/ and config/ instead; the runtime loader
 * (registerIconLoader) falls back to Blueprint's own loader for any other name.
 */
export function iconSubsetPlugin(root: string): Plugin {
  const require = createRequire(import.meta.url)
  const generatedDir = resolve(
    dirname(require.resolve('@blueprintjs/icons/lib/esm/index.js')),
    'generated',
  ).replaceAll('\\', '/')
  return {
    name: 'emberline-icon-subset',
    resolveId: (id) => (id === VIRTUAL_ID ? RESOLVED_ID : null),
    load(id) {
      if (id !== RESOLVED_ID) return null
      const names = collectIconNames({
        pathsDir: `${generatedDir}/16px/paths`,
        srcDir: resolve(root, 'src'),
        configDir: resolve(root, 'config'),
      })
      return iconSubsetModule(names, generatedDir)
    },
  }
}
