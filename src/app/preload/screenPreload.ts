/** The chunk files a chunk needs: itself and its static imports, recursively, minus `skip` (the entry's). */
export function chunkClosure(
  start: string,
  importsOf: (fileName: string) => readonly string[],
  skip: ReadonlySet<string>,
): string[] {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file) || skip.has(file)) return
    seen.add(file)
    for (const next of importsOf(file)) visit(next)
  }
  visit(start)
  return [...seen]
}

/**
 * Route paths and the feature whose index.ts draws them, read from the screen table's source
 * (src/app/router/screens.ts: `'/path': () => import('../../features/<feature>')…`).
 */
export function screenFeatures(screensSource: string): { path: string; feature: string }[] {
  const found: { path: string; feature: string }[] = []
  for (const m of screensSource.matchAll(
    /'(\/[^']*)':\s*\(\)\s*=>\s*import\('(?:\.\.\/)+features\/([\w-]+)'\)/g,
  ))
    found.push({ path: (m[1] ?? '').toLowerCase().replace(/\/$/, ''), feature: m[2] ?? '' })
  return found
}

/**
 * An inline script for index.html: on any path not in `excludedPaths` (compared lower-case without
 * a trailing slash) it adds `<link rel="modulepreload">` for `files` (the map screen's chunks), and on
 * every path the chunks of that route's own screen (`byRoute`, keyed the same way), so the browser
 * fetches and compiles them while the entry chunk runs instead of after it.
 */
export function preloadScript(
  files: readonly string[],
  excludedPaths: readonly string[],
  base: string,
  byRoute: Readonly<Record<string, readonly string[]>> = {},
): string {
  const excluded = JSON.stringify(excludedPaths.map((p) => p.toLowerCase().replace(/\/$/, '')))
  const prefix = (list: readonly string[]) => list.map((f) => `${base}${f}`)
  const hrefs = JSON.stringify(prefix(files))
  const routes = JSON.stringify(
    Object.fromEntries(Object.entries(byRoute).map(([path, list]) => [path, prefix(list)])),
  )
  return (
    `(function(){var p=location.pathname.toLowerCase().replace(/\\/$/,'');` +
    `var r=${routes}[p]||[];var f=${excluded}.indexOf(p)>=0?r:${hrefs}.concat(r);` +
    `f.forEach(function(h){var l=document.createElement('link');l.rel='modulepreload';l.href=h;document.head.appendChild(l)})})()`
  )
}
