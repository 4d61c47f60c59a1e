import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { installErrorHandler } from './errorHandler'
import routeSchemas from './routeSchemas'
import { declaresNumbers, parseDecimal } from './strictNumbers'

describe('parseDecimal', () => {
  const whole = { integer: true, minimum: 0, maximum: 100 }
  const decimal = { integer: false, minimum: -180, maximum: 180 }

  it('reads plain decimal within the bounds', () => {
    expect(parseDecimal('0', whole)).toBe(0)
    expect(parseDecimal('007', whole)).toBe(7)
    expect(parseDecimal('100', whole)).toBe(100)
    expect(parseDecimal('-106.5', decimal)).toBe(-106.5)
    expect(parseDecimal('1.0000000000000001e-05', decimal)).toBe(1e-5)
    expect(parseDecimal('.5', decimal)).toBe(0.5)
  })

  it.each([
    'Infinity',
    '-Infinity',
    'NaN',
    '1e309',
    '-1e309',
    '0x10',
    '0b101',
    '0o17',
    ' 5',
    '5 ',
    '+5',
    '5\u0000',
    '',
    '1_0',
    '１',
    '9'.repeat(400),
    '101',
    '-1',
    '1e1',
    '1.0',
    '1.5',
  ])('refuses %j as a whole number from 0 to 100', (text) => {
    expect(parseDecimal(text, whole)).toBeNull()
  })

  it.each(['Infinity', '1e309', '0x10', ' 5', '+5', '180.5', '-1e3', '1e', '.', '-'])(
    'refuses %j as a decimal from -180 to 180',
    (text) => {
      expect(parseDecimal(text, decimal)).toBeNull()
    },
  )

  it('honours exclusive bounds and whole numbers past 2^53', () => {
    expect(parseDecimal('0', { integer: false, exclusiveMinimum: 0 })).toBeNull()
    expect(parseDecimal('10', { integer: false, exclusiveMaximum: 10 })).toBeNull()
    expect(parseDecimal('9007199254740993', { integer: true })).toBeNull()
  })
})

describe('declaresNumbers', () => {
  it('finds integers and numbers anywhere in a schema', () => {
    expect(declaresNumbers({ type: 'object', properties: { a: { type: 'string' } } })).toBe(false)
    expect(declaresNumbers({ type: 'object', properties: { a: { type: ['integer', 'null'] } } })).toBe(true)
    expect(
      declaresNumbers({ type: 'object', properties: { a: { type: 'array', items: { type: 'number' } } } }),
    ).toBe(true)
    expect(declaresNumbers({ type: 'object', additionalProperties: { type: 'number' } })).toBe(true)
    expect(declaresNumbers(undefined)).toBe(false)
  })
})

describe('the route spine holds every numeric parameter to plain decimal', () => {
  async function app() {
    const a = Fastify()
    installErrorHandler(a)
    await a.register(routeSchemas)
    const n = { type: 'integer', minimum: 0, maximum: 100 } as const
    a.get(
      '/q/:z',
      {
        schema: {
          params: { type: 'object', properties: { z: n } },
          querystring: {
            type: 'object',
            properties: { limit: n, ratio: { type: 'number', minimum: 0, maximum: 1 } },
          },
        },
      },
      async (request) => ({ params: request.params, query: request.query }),
    )
    a.post(
      '/b',
      {
        schema: {
          body: {
            type: 'object',
            properties: { limit: n, nested: { type: 'object', properties: { hour: n } } },
          },
        },
      },
      async (request) => request.body,
    )
    return a
  }

  it('passes plain values through as numbers', async () => {
    const a = await app()
    const res = await a.inject('/q/7?limit=10&ratio=0.25')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ params: { z: 7 }, query: { limit: 10, ratio: 0.25 } })
    const body = await a.inject({ method: 'POST', url: '/b', payload: { limit: 5, nested: { hour: '3' } } })
    expect(body.json()).toEqual({ limit: 5, nested: { hour: 3 } })
  })

  it.each([
    ['/q/Infinity', 'z'],
    ['/q/0x10', 'z'],
    ['/q/1?limit=Infinity', 'limit'],
    ['/q/1?limit=-Infinity', 'limit'],
    ['/q/1?limit=1e309', 'limit'],
    ['/q/1?limit=0x10', 'limit'],
    ['/q/1?limit=%2016', 'limit'],
    ['/q/1?limit=%2B16', 'limit'],
    ['/q/1?limit=101', 'limit'],
    ['/q/1?limit=1&limit=2', 'limit'],
    ['/q/1?ratio=NaN', 'ratio'],
    ['/q/1?ratio=1e-400x', 'ratio'],
  ])('GET %s → 400 naming %s', async (url, parameter) => {
    const res = await (await app()).inject(url)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ error: 'bad_request', parameter })
  })

  it.each([
    ['{"limit":1e309}', 'limit'],
    ['{"limit":"Infinity"}', 'limit'],
    ['{"limit":"0x10"}', 'limit'],
    ['{"limit":[1,2]}', 'limit'],
    ['{"limit":true}', 'limit'],
    ['{"limit":101}', 'limit'],
    ['{"nested":{"hour":"-Infinity"}}', 'nested'],
  ])('POST %s → 400 naming %s', async (payload, parameter) => {
    const res = await (
      await app()
    ).inject({
      method: 'POST',
      url: '/b',
      payload,
      headers: { 'content-type': 'application/json' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ error: 'bad_request', parameter })
  })
})
