import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { seedDemo } from '../../src/demo/seedDemo'
import { defaultCatalog } from '../../src/server/store/catalog'
import { openStore, type SqliteStore } from '../../src/server/store/sqliteStore'
import { tempDir } from './testApp'

// A JSON Schema on every route, held from outside: every route the app registers (read from the
// spine's route table, so a route added anywhere is in it) declares its query, its path
// parameters when the URL has any, and its body when the method takes one. Only the built web
// app's files (@fastify/static, schema.hide) take nothing a schema could describe.

let store: SqliteStore
let app: FastifyInstance
let dataDir: string

beforeAll(async () => {
  dataDir = tempDir('emberline-routeschemas-')
  const staticDir = path.join(dataDir, 'dist')
  fs.mkdirSync(path.join(staticDir, 'assets'), { recursive: true })
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Emberline</title>')
  fs.writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)')
  store = openStore(dataDir, defaultCatalog())
  seedDemo(store, { buildings: 100, steps: [] })
  app = await buildApp({ dataDir, demo: true, store, staticDir })
  await app.ready()
}, 120_000)

afterAll(async () => {
  await app.close()
  store.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('the route table', () => {
  it('gives every route a schema for its query, path parameters and body', () => {
    const missing: string[] = []
    let checked = 0
    for (const route of app.routeTable) {
      const schema = route.schema as Record<string, unknown> | undefined
      if (schema?.hide === true || route.method === 'HEAD') continue
      checked++
      const name = `${route.method} ${route.url}`
      if (!schema?.querystring) missing.push(`${name}: querystring`)
      if (route.url.includes(':') && !schema?.params) missing.push(`${name}: params`)
      if (['POST', 'PUT', 'PATCH'].includes(route.method) && !schema?.body) missing.push(`${name}: body`)
    }
    expect(missing).toEqual([])
    expect(checked).toBeGreaterThan(60)
  })

  it('describes the records response without dropping a field clients read', async () => {
    const records = app.routeTable.find((r) => r.url === '/api/data/:dataset/records')
    expect(records?.schema?.response).toBeDefined()
  })
})
