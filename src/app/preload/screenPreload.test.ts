import { describe, expect, it } from 'vitest'
import { chunkClosure, preloadScript, screenFeatures } from './screenPreload'

describe('chunkClosure', () => {
  const graph: Record<string, string[]> = {
    'map.js': ['leaflet.js', 'entry.js', 'shared.js'],
    'leaflet.js': ['shared.js'],
    'shared.js': ['map.js'],
    'entry.js': ['vendor.js'],
  }
  it('follows static imports once each and leaves out the entry chunks', () => {
    const files = chunkClosure('map.js', (f) => graph[f] ?? [], new Set(['entry.js', 'vendor.js']))
    expect(files.sort()).toEqual(['leaflet.js', 'map.js', 'shared.js'])
  })
})

describe('screenFeatures', () => {
  it('reads which feature draws each route from the screen table', () => {
    const source = `const screens = {
  '/dailywildfirerisk': () => import('../../features/risk').then((m) => m.DailyWildfireRiskScreen),
  '/PSPS/': () => import('../../features/operations').then((m) => m.PspsScreen),
}`
    expect(screenFeatures(source)).toEqual([
      { path: '/dailywildfirerisk', feature: 'risk' },
      { path: '/psps', feature: 'operations' },
    ])
  })
})

describe('preloadScript', () => {
  function run(path: string): string[] {
    const added: string[] = []
    const document = {
      createElement: () => ({ rel: '', href: '' }),
      head: { appendChild: (l: { rel: string; href: string }) => added.push(`${l.rel} ${l.href}`) },
    }
    const script = preloadScript(
      ['assets/map.js', 'assets/leaflet.js'],
      ['/login/Authenticate', '/Help'],
      '/',
      {
        '/psps': ['assets/operations.js'],
        '/help': ['assets/docs.js'],
      },
    )
    new Function('location', 'document', script)({ pathname: path }, document)
    return added
  }

  it('preloads the map chunks on map routes', () => {
    expect(run('/alerts')).toEqual(['modulepreload /assets/map.js', 'modulepreload /assets/leaflet.js'])
    expect(run('/')).toHaveLength(2)
  })

  it("adds the route's own screen chunks", () => {
    expect(run('/PSPS')).toEqual([
      'modulepreload /assets/map.js',
      'modulepreload /assets/leaflet.js',
      'modulepreload /assets/operations.js',
    ])
  })

  it('preloads no map chunks on the excluded routes, whatever their case or trailing slash', () => {
    expect(run('/login/authenticate')).toEqual([])
    expect(run('/help/')).toEqual(['modulepreload /assets/docs.js'])
  })
})
