import { execFileSync, spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { seedDemo } from '../../src/demo/seedDemo'
import { defaultCatalog } from '../../src/server/store/catalog'
import type { AppStore } from '../../src/server/store/AppStore'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { AUTH, tempDir, testVerifier } from './testApp'

const INLINE = "(function(){document.documentElement.dataset.preload='1'})()"
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/app.js"></script><script>${INLINE}</script></head><body></body></html>`

let dataDir: string
let staticDir: string
let store: AppStore
let app: FastifyInstance

async function appWith(options: { sourceMaps?: boolean; trustProxy?: boolean } = {}) {
  return buildApp({ dataDir, demo: true, store, staticDir, verifier: testVerifier, ...options })
}

beforeAll(async () => {
  dataDir = tempDir('emberline-security-')
  staticDir = path.join(dataDir, 'dist')
  fs.mkdirSync(path.join(staticDir, 'assets'), { recursive: true })
  fs.writeFileSync(path.join(staticDir, 'index.html'), INDEX)
  fs.writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)\n')
  fs.writeFileSync(path.join(staticDir, 'assets', 'app.js.map'), '{"version":3,"sources":["secret.ts"]}')
  store = await openDataDirStore(dataDir, defaultCatalog())
  await seedDemo(store, { buildings: 100, steps: [] })
  app = await appWith()
}, 120_000)

afterAll(async () => {
  await app.close()
  await store.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('security headers', () => {
  const responses: [string, { url: string; headers?: Record<string, string> }][] = [
    ['public JSON', { url: '/api/health' }],
    ['401', { url: '/api/data/buildings/records' }],
    ['400', { url: '/api/data/buildings/records?limit=0', headers: AUTH }],
    ['records', { url: '/api/data/buildings/records?limit=1', headers: AUTH }],
    ['vector tile', { url: '/api/tiles/buildings/mvt/10/200/400', headers: AUTH }],
    ['raster tile', { url: '/api/tiles/slope/png/6/12/25', headers: AUTH }],
    ['API 404', { url: '/api/nothing' }],
    ['page (SPA fallback)', { url: '/DailyWildfireRisk' }],
    ['static file', { url: '/assets/app.js' }],
    ['identity provider', { url: '/sdk/v1/b2b/organizations/me' }],
  ]

  it.each(responses)('are on every response: %s', async (_name, request) => {
    const res = await app.inject(request)
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("default-src 'self'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['referrer-policy']).toBe('no-referrer')
    expect(res.headers['x-frame-options']).toBe('DENY')
    expect(res.headers['strict-transport-security']).toBeUndefined()
  })

  it('allow scripts from our origin and the page’s own inline snippet by hash, never eval', async () => {
    const csp = String((await app.inject({ url: '/' })).headers['content-security-policy'])
    const hash = crypto.createHash('sha256').update(INLINE).digest('base64')
    expect(csp).toMatch(new RegExp(`script-src 'self' 'sha256-${hash.replace(/[+/]/g, '\\$&')}'`))
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    expect(csp).toContain("worker-src 'self' blob:")
    expect(csp).toContain("connect-src 'self'")
  })

  it('send HSTS only over HTTPS (here through a trusted proxy)', async () => {
    const proxied = await appWith({ trustProxy: true })
    const https = await proxied.inject({ url: '/api/health', headers: { 'x-forwarded-proto': 'https' } })
    expect(https.headers['strict-transport-security']).toMatch(/max-age=31536000/)
    const http = await proxied.inject({ url: '/api/health', headers: { 'x-forwarded-proto': 'http' } })
    expect(http.headers['strict-transport-security']).toBeUndefined()
    await proxied.close()
    const untrusted = await app.inject({ url: '/api/health', headers: { 'x-forwarded-proto': 'https' } })
    expect(untrusted.headers['strict-transport-security']).toBeUndefined()
  })
})

describe('source maps', () => {
  it('are not served unless enabled (the page shell is not served in their place either)', async () => {
    const res = await app.inject({ url: '/assets/app.js.map' })
    expect(res.statusCode).toBe(404)
    expect(res.body).not.toContain('secret.ts')
    expect((await app.inject({ url: '/assets/app.js' })).statusCode).toBe(200)
  })

  it('are served with sourceMaps on (EMBERLINE_SOURCE_MAPS=on)', async () => {
    const withMaps = await appWith({ sourceMaps: true })
    const res = await withMaps.inject({ url: '/assets/app.js.map' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('secret.ts')
    await withMaps.close()
  })

  it('are not referenced from the production bundles', () => {
    const config = fs.readFileSync(path.resolve(import.meta.dirname, '../../vite.config.ts'), 'utf8')
    expect(config).toMatch(/sourcemap:\s*'hidden'/)
  })
})

/** A directory the server cannot write, even as root: immutable (ext4), else read-only mode, else /sys. */
function unwritableDir(): { dir: string; release(): void } {
  const dir = tempDir('emberline-readonly-')
  try {
    execFileSync('chattr', ['+i', dir], { stdio: 'ignore' })
    return { dir, release: () => execFileSync('chattr', ['-i', dir], { stdio: 'ignore' }) }
  } catch {
    fs.chmodSync(dir, 0o555)
    try {
      fs.writeFileSync(path.join(dir, 'probe'), '')
      fs.rmSync(path.join(dir, 'probe'))
      return { dir: '/sys/emberline-test-data', release: () => {} }
    } catch {
      return { dir, release: () => fs.chmodSync(dir, 0o755) }
    }
  }
}

describe('a read-only data directory', () => {
  it('stops the server at start with one clear line, not a stack trace', () => {
    const { dir, release } = unwritableDir()
    try {
      const root = path.resolve(import.meta.dirname, '../..')
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        cwd: root,
        env: { ...process.env, DATA_DIR: dir, PORT: '0', SEED: 'off', LOG_LEVEL: 'error' },
        encoding: 'utf8',
        timeout: 60_000,
      })
      expect(run.status).toBe(1)
      const lines = run.stderr.trim().split('\n')
      expect(lines).toEqual([
        expect.stringMatching(
          new RegExp(`^emberline: cannot write to the data directory ${dir} \\(E[A-Z]+\\): set DATA_DIR`),
        ),
      ])
      expect(run.stderr).not.toMatch(/^\s+at /m)
    } finally {
      release()
    }
  })
})
