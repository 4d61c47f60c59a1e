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

  it('bounds every numeric parameter (minimum and maximum on each integer or number it accepts)', () => {
    interface Node {
      type?: string | string[]
      properties?: Record<string, Node>
      items?: Node
      additionalProperties?: boolean | Node
      minimum?: number
      maximum?: number
      exclusiveMinimum?: number
      exclusiveMaximum?: number
    }
    const unbounded: string[] = []
    let numbers = 0
    const walk = (node: Node | undefined, where: string): void => {
      if (!node || typeof node !== 'object') return
      const types = node.type === undefined ? [] : [node.type].flat()
      if (types.includes('integer') || types.includes('number')) {
        numbers++
        const low = node.minimum ?? node.exclusiveMinimum
        const high = node.maximum ?? node.exclusiveMaximum
        if (low === undefined || high === undefined) unbounded.push(where)
      }
      for (const [name, child] of Object.entries(node.properties ?? {})) walk(child, `${where}.${name}`)
      walk(node.items, `${where}[]`)
      if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, `${where}.*`)
    }
    for (const route of app.routeTable) {
      const schema = (route.schema ?? {}) as Record<string, Node | undefined>
      for (const part of ['querystring', 'params', 'body'])
        walk(schema[part], `${route.method} ${route.url} ${part}`)
    }
    expect(unbounded).toEqual([])
    expect(numbers).toBeGreaterThan(20)
  })

  it('describes the records response without dropping a field clients read', async () => {
    const records = app.routeTable.find((r) => r.url === '/api/data/:dataset/records')
    expect(records?.schema?.response).toBeDefined()
  })
})
