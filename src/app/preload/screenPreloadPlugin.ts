// Vite plugin (build only): index.html preloads the map screen's chunks on the routes that show the map.
import fs from 'node:fs'
import path from 'node:path'
import type { Plugin } from 'vite'
import { appConfig } from '../../shared/config'
import { chunkClosure, preloadScript, screenFeatures } from './screenPreload'

/** The module whose chunk (with that chunk's static imports) draws the map screens. */
const MAP_MODULE = '/src/features/map/MapScreen.tsx'
/** The screen table: which feature's index.ts draws each route. */
const SCREENS_SOURCE = path.resolve(import.meta.dirname, '../router/screens.ts')

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
        const mapFiles = new Set([...entryFiles, ...files])
        const byRoute: Record<string, string[]> = {}
        for (const { path: route, feature } of screenFeatures(fs.readFileSync(SCREENS_SOURCE, 'utf8'))) {
          const screen = chunks.find((c) =>
            c.moduleIds.some((id) => id.replaceAll('\\', '/').endsWith(`/src/features/${feature}/index.ts`)),
          )
          if (screen) byRoute[route] = chunkClosure(screen.fileName, importsOf, mapFiles)
        }
        const home = appConfig.routes.default.toLowerCase().replace(/\/$/, '')
        if (byRoute[home]) byRoute[''] = byRoute[home]
        return [
          {
            tag: 'script',
            children: preloadScript(files, appConfig.routes.sidebarExcluded, '/', byRoute),
            // before the stylesheet: an inline script after a stylesheet waits for it to load
            injectTo: 'head-prepend',
          },
        ]
      },
    },
  }
}
