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
 * An inline script for index.html: on any path not in `excludedPaths` (compared lower-case without
 * a trailing slash) it adds `<link rel="modulepreload">` for `files`, so the browser fetches and
 * compiles the map screen's chunks while the entry chunk runs instead of after it.
 */
export function preloadScript(
  files: readonly string[],
  excludedPaths: readonly string[],
  base: string,
): string {
  const excluded = JSON.stringify(excludedPaths.map((p) => p.toLowerCase().replace(/\/$/, '')))
  const hrefs = JSON.stringify(files.map((f) => `${base}${f}`))
  return (
    `(function(){var p=location.pathname.toLowerCase().replace(/\\/$/,'');` +
    `if(${excluded}.indexOf(p)>=0)return;` +
    `${hrefs}.forEach(function(h){var l=document.createElement('link');l.rel='modulepreload';l.href=h;document.head.appendChild(l)})})()`
  )
}
