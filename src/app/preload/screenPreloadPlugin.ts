// Vite plugin (build only): index.html preloads the map screen's chunks on the routes that show the map.
import type { Plugin } from 'vite'
import { appConfig } from '../../shared/config'
import { chunkClosure, preloadScript } from './screenPreload'

/** The module whose chunk (with that chunk's static imports) draws the map screens. */
const MAP_MODULE = '/src/features/map/MapScreen.tsx'

/**
 * The map screen is lazily loaded, so without this the browser asks for its chunks only after the
 * entry chunk has downloaded and run. Routes without the map (config routes.sidebarExcluded: sign-in,
 * documentation, help, settings) preload nothing.
 */
export function screenPreloadPlugin(): Plugin {
  return {
    name: 'emberline-screen-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle
        if (!bundle) return []
        const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []))
        const map = chunks.find((c) =>
          c.moduleIds.some((id) => id.replaceAll('\\', '/').endsWith(MAP_MODULE)),
        )
        if (!map) return []
        const entryFiles = new Set(chunks.filter((c) => c.isEntry).flatMap((c) => [c.fileName, ...c.imports]))
        const importsOf = (file: string) => chunks.find((c) => c.fileName === file)?.imports ?? []
        const files = chunkClosure(map.fileName, importsOf, entryFiles)
        return [
          {
            tag: 'script',
            children: preloadScript(files, appConfig.routes.sidebarExcluded, '/'),
            injectTo: 'head',
          },
        ]
      },
    },
  }
}
