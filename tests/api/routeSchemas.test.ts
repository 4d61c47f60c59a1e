import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appAsStarted, type TestApp } from './testApp'

// A JSON Schema on every route, held from outside: every route the app registers (read from the
// spine's route table, so a route added anywhere is in it) declares its query, its path
// parameters when the URL has any, and its body when the method takes one. Only the built web
// app's files (@fastify/static, schema.hide) take nothing a schema could describe.

let started: TestApp
let app: FastifyInstance

beforeAll(async () => {
  // No verifier: the identity plugin's bundled verifier guards the routes, as in `npm start`.
  started = await appAsStarted(100)
  app = started.app
}, 120_000)

afterAll(() => started.close())

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
