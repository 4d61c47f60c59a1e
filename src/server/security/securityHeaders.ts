import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import helmet from 'helmet'
import type { FastifyInstance } from 'fastify'
import { appConfig } from '../../shared/config'
import { basemapOrigins } from './basemapOrigins'

export interface SecurityHeadersOptions {
  /** The built web app (its index.html's inline scripts are allowed by hash). */
  staticDir?: string | null
  /** Origins the page may also fetch from (a hosted identity provider). */
  connectSrc?: readonly string[]
}

/** One year, the preload-list minimum. */
const HSTS = 'max-age=31536000; includeSubDomains'

/** sha256 sources for the inline `<script>` elements of index.html (the route-preload snippet). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = []
  for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    const body = m[1] ?? ''
    if (body.trim() === '') continue
    hashes.push(`'sha256-${crypto.createHash('sha256').update(body, 'utf8').digest('base64')}'`)
  }
  return hashes
}

/**
 * The Content-Security-Policy directives: only what the app loads. Scripts and workers come from
 * our origin (plus the hashed inline preload snippet); styles also inline, because Blueprint's
 * popovers, Leaflet and ApexCharts set style attributes and inject <style> elements; images from
 * our origin, data: (Leaflet and Blueprint icons) and blob: (canvas snapshots); nothing may frame
 * the app, no plugins, no <base> or form posts elsewhere.
 */
export function cspDirectives(opts: SecurityHeadersOptions): Record<string, string[]> {
  const index = opts.staticDir ? path.join(opts.staticDir, 'index.html') : null
  const html = index && fs.existsSync(index) ? fs.readFileSync(index, 'utf8') : ''
  const basemap = basemapOrigins(appConfig.map.basemap)
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...inlineScriptHashes(html)],
    'worker-src': ["'self'", 'blob:'],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...basemap.img],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...(opts.connectSrc ?? []), ...basemap.connect],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  }
}

/**
 * Security headers on every response (API, tiles, errors, static files, the SPA fallback):
 * helmet's set with our CSP, `Referrer-Policy: no-referrer`, `nosniff`, `X-Frame-Options: DENY`;
 * `Strict-Transport-Security` only on requests that came over HTTPS (directly, or through a
 * trusted proxy's X-Forwarded-Proto): sent over plain HTTP it would be ignored or, on a
 * mis-set-up local server, pin a host to HTTPS it does not serve.
 *
 * helmet's middleware is made once and applied in one hook on the root instance (every route,
 * the 404 handler included). @fastify/helmet made it anew on every request (parsing the CSP each
 * time: ~7 % of the server's CPU on a cached tile, docs/performance.md).
 */
export function registerSecurityHeaders(app: FastifyInstance, opts: SecurityHeadersOptions): void {
  const apply = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(opts) },
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  })
  app.addHook('onRequest', (request, reply, done) => {
    apply(request.raw, reply.raw, (err?: unknown) => {
      if (err) return done(err instanceof Error ? err : new Error(String(err)))
      if (request.protocol === 'https') reply.header('Strict-Transport-Security', HSTS)
      done()
    })
  })
}
