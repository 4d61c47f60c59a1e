import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import type { SessionVerifier } from '../../src/server/auth/sessionVerifier'
import { filterableFields } from '../../src/server/store/catalog'
import { operationsConfig } from '../../src/shared/config'
import {
  badSpelling,
  badSpellingTable,
  goodSpelling,
  numericParams,
  sendSpelled,
  spelledRequest,
  type NumberSchema,
  type NumericParam,
} from './numberSpellings'
import { AUTH, seededApp, TEST_TOKEN, testVerifier, type TestApp } from './testApp'

// Property-based fuzzing from outside: whatever a client sends in a query, a path parameter or a
// body, the server answers below 500 and the stored data does not change. Seeded, so a failure
// prints a seed and path that reproduce it.
const SEED = 20261124
const RUNS = 200

let t: TestApp
let requests = 0
const statuses = new Map<number, number>()
const failures: string[] = []

beforeAll(async () => {
  t = await seededApp({ buildings: 300 })
}, 120_000)

afterAll(async () => {
  console.log(
    `fuzz: ${requests} requests, ${failures.length} answered 5xx; by status ${JSON.stringify([...statuses].sort((a, b) => a[0] - b[0]))}`,
  )
  await t.close()
})

/** Values that have broken parsers before: huge, non-finite, negative, fractional, empty, typed wrong. */
const nasty = fc.oneof(
  fc.constantFrom(
    '9223372036854775807',
    '18446744073709551616',
    '1e309',
    '-1e309',
    '1e-400',
    'NaN',
    'Infinity',
    '-1',
    '-0',
    '0x10',
    '1.5',
    '',
    ' ',
    '%00',
    '\u0000',
    '[]',
    '{}',
    'null',
    'true',
    '__proto__',
    'constructor',
    "'; DROP TABLE datasets; --",
    '9'.repeat(400),
  ),
  fc.integer().map(String),
  // Beyond what a 64-bit integer or a double holds exactly: the numbers that reached SQLite as 500s.
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 90n }).map(String),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.double({ min: 1e15, noNaN: true }).map(String),
  fc.double().map(String),
  fc.string({ maxLength: 40 }),
)

/** A JSON value of any shape (filters and bodies). */
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record(
    { field: nasty, value: fc.oneof(nasty, fc.jsonValue({ maxDepth: 2 })), type: nasty },
    { requiredKeys: [] },
  ),
)

function query(params: [string, string][]): string {
  if (params.length === 0) return ''
  return `?${params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`
}

/** Query parameters: mostly the route's own names (so values reach its parsers), some unknown ones. */
const paramsOf = (names: string[]) =>
  fc.array(
    fc.tuple(
      fc.oneof(
        { arbitrary: fc.constantFrom(...names), weight: 4 },
        { arbitrary: fc.string({ maxLength: 12 }), weight: 1 },
      ),
      nasty,
    ),
    { minLength: 1, maxLength: 4 },
  )

async function send(method: string, url: string, payload?: string, headers: Record<string, string> = AUTH) {
  requests++
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    payload,
    headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
  })
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
  if (res.statusCode >= 500)
    failures.push(`${method} ${url} ${payload ?? ''} → ${res.statusCode} ${res.body}`)
  return res.statusCode
}

async function snapshot(): Promise<string> {
  const datasets: unknown[] = []
  for (const d of t.store.catalog.datasets) datasets.push([d.id, await t.store.info(d.id)])
  const members = (await t.store.members.listMembers()).map((m) => [m.memberId, m.email, m.status])
  return JSON.stringify({ datasets, members })
}

const check = async (prop: fc.IAsyncProperty<[unknown]> | fc.IAsyncProperty<unknown[]>) => {
  await fc.assert(prop, { seed: SEED, numRuns: RUNS })
}

describe('no request answers 5xx, and none changes the stored data', () => {
  let before = ''
  beforeAll(async () => {
    before = await snapshot()
  })

  it('records: filters, limit, offset, sort', async () => {
    const ids = ['buildings', 'thermal_hot_spots', 'critical_infrastructure', 'transmission_lines']
    // Each part is valid most of the time, so that one odd value at a time reaches the store.
    const mostly = (valid: fc.Arbitrary<string>) =>
      fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: nasty, weight: 1 })
    const request = fc.constantFrom(...ids).chain((dataset) => {
      const defs = [...filterableFields(t.store.catalog, dataset).values()]
      const names = defs.map((d) => d.name)
      const field = names.length > 0 ? fc.constantFrom(...names) : fc.constant('none')
      const typed =
        defs.length === 0
          ? fc.constant<object>({ field: 'none', value: 1 })
          : fc.constantFrom(...defs).chain((d): fc.Arbitrary<object> =>
              d.type === 'number'
                ? fc.record({
                    field: fc.constant(d.name),
                    value: fc.oneof(fc.double(), fc.integer(), nasty),
                    type: fc.constantFrom('eq', 'neq', 'gt', 'gte', 'lt', 'lte'),
                  })
                : fc.record({ field: fc.constant(d.name), value: mostly(fc.string({ maxLength: 8 })) }),
            )
      const filter = fc.oneof({ arbitrary: typed, weight: 4 }, { arbitrary: anyJson, weight: 1 })
      const param = (name: string, valid: fc.Arbitrary<string>) =>
        fc.option(
          mostly(valid).map((v): [string, string] => [name, v]),
          { nil: undefined },
        )
      return fc.tuple(
        fc.constant(dataset),
        fc.array(
          filter.map((f): [string, string] => ['filters', JSON.stringify(f)]),
          { maxLength: 2 },
        ),
        param('limit', fc.integer({ min: 1, max: 1000 }).map(String)),
        param('offset', fc.oneof(fc.nat(), fc.constant(Number.MAX_SAFE_INTEGER)).map(String)),
        param(
          'sort',
          field.chain((f) => fc.constantFrom(f, `-${f}`)),
        ),
      )
    })
    await check(
      fc.asyncProperty(request, async ([dataset, filters, ...params]) => {
        const all = [...filters, ...params.filter((p): p is [string, string] => p !== undefined)]
        expect(await send('GET', `/api/data/${dataset}/records${query(all)}`)).toBeLessThan(500)
      }),
    )
    // Unknown datasets and path tricks.
    for (const dataset of ['nope', '%2e%2e', 'a'.repeat(300), '%00']) {
      expect(await send('GET', `/api/data/${dataset}/records?limit=1`)).toBeLessThan(500)
    }
  })

  it('vector, raster and basemap tiles: z/x/y, hour, run', async () => {
    await check(
      fc.asyncProperty(
        fc.constantFrom(
          '/api/tiles/buildings/mvt',
          '/api/tiles/asset_data/transmission_lines/mvt',
          '/api/tiles/slope/png',
          '/api/tiles/smoke/png',
          '/api/tiles/wind_gust_speed/next_psps/png',
          '/api/basemap',
        ),
        nasty,
        nasty,
        nasty,
        paramsOf(['hour', 'run']),
        async (base, z, x, y, params) => {
          const url = `${base}/${encodeURIComponent(z)}/${encodeURIComponent(x)}/${encodeURIComponent(y)}${query(params)}`
          expect(await send('GET', url)).toBeLessThan(500)
        },
      ),
    )
  })

  it('wind, smoke and series endpoints', async () => {
    await check(
      fc.asyncProperty(nasty, paramsOf(['hour', 'run']), async (id, params) => {
        for (const url of [
          `/api/data/wind_vectors/grid/${encodeURIComponent(id)}${query(params)}`,
          `/api/data/wind_vectors/tileset${query(params)}`,
          `/api/data/smoke/service/config${query(params)}`,
        ]) {
          expect(await send('GET', url)).toBeLessThan(500)
        }
      }),
    )
  })

  it('operations: alerts, acks, PSPS, planning, mitigation', async () => {
    await check(
      fc.asyncProperty(
        nasty,
        paramsOf([
          'rule',
          'severity',
          'acknowledged',
          'sort',
          'format',
          'hour',
          'below',
          'threshold.default',
          'weight.customers',
        ]),
        async (id, params) => {
          const q = query(params)
          const p = encodeURIComponent(id)
          for (const [method, url] of [
            ['GET', `/api/alerts${q}`],
            ['GET', `/api/alerts/${p}/geometry`],
            ['POST', `/api/alerts/${p}/ack`],
            ['DELETE', `/api/alerts/${p}/ack`],
            ['GET', `/api/psps/event${q}`],
            ['GET', `/api/psps/event/${p}/geometry`],
            ['GET', `/api/planning${q}`],
            ['GET', `/api/planning/circuits/${p}/geometry`],
            ['GET', `/api/mitigation${q}`],
            ['GET', `/api/mitigation/circuits/${p}`],
          ] as const) {
            expect(await send(method, url, method === 'GET' ? undefined : '{}')).toBeLessThan(500)
          }
        },
      ),
    )
  })

  it('member preferences and account bodies', async () => {
    await check(
      fc.asyncProperty(
        fc.oneof(
          anyJson.map((v) => JSON.stringify(v)),
          fc.string({ maxLength: 60 }),
        ),
        async (body) => {
          expect(await send('PUT', '/api/me/preferences', body)).toBeLessThan(500)
          expect(await send('POST', '/api/me/password', body)).toBeLessThan(500)
        },
      ),
    )
  })

  it('identity provider bodies (sign-in, SMS, reset, sessions)', async () => {
    const paths = [
      '/sdk/v1/b2b/passwords/authenticate',
      '/sdk/v1/b2b/passwords/email/reset/start',
      '/sdk/v1/b2b/passwords/email/reset',
      '/sdk/v1/b2b/passwords/strength_check',
      '/sdk/v1/b2b/otps/sms/send',
      '/sdk/v1/b2b/otps/sms/authenticate',
      '/sdk/v1/b2b/sessions/authenticate',
      '/sdk/v1/b2b/sessions/revoke',
    ]
    const fields = fc.record(
      {
        organization_id: nasty,
        email_address: nasty,
        password: nasty,
        member_id: nasty,
        intermediate_session_token: nasty,
        code: nasty,
        session_duration_minutes: fc.oneof(nasty, fc.integer(), fc.double()),
        password_reset_token: nasty,
        code_verifier: nasty,
        mfa_phone_number: nasty,
      },
      { requiredKeys: [] },
    )
    await check(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.oneof(
          fields.map((v) => JSON.stringify(v)),
          anyJson.map((v) => JSON.stringify(v)),
          fc.string({ maxLength: 60 }),
        ),
        fc.oneof(fc.constant(undefined), nasty),
        async (path, body, token) => {
          const headers: Record<string, string> =
            token === undefined
              ? {}
              : { authorization: `Basic ${Buffer.from(`project:${token}`).toString('base64')}` }
          expect(await send('POST', path, body, headers)).toBeLessThan(500)
        },
      ),
    )
  })

  it('member administration: SDK member endpoints and /api/admin (params, queries, bodies)', async () => {
    await check(
      fc.asyncProperty(
        nasty,
        paramsOf(['actor', 'action', 'member', 'from', 'to', 'page', 'limit']),
        fc.oneof(
          anyJson.map((v) => JSON.stringify(v)),
          fc
            .record(
              {
                email: nasty,
                name: nasty,
                roles: fc.oneof(nasty, fc.array(nasty, { maxLength: 3 })),
                phone: nasty,
                mfa_phone_number: nasty,
                limit: fc.oneof(nasty, fc.integer()),
                cursor: nasty,
                query: anyJson,
              },
              { requiredKeys: [] },
            )
            .map((v) => JSON.stringify(v)),
        ),
        fc.oneof(fc.constant(undefined), nasty),
        async (id, params, body, token) => {
          const p = encodeURIComponent(id)
          const basic: Record<string, string> =
            token === undefined
              ? {}
              : { authorization: `Basic ${Buffer.from(`project:${token}`).toString('base64')}` }
          for (const [method, url, payload, headers] of [
            ['GET', `/api/admin/audit${query(params)}`, undefined, AUTH],
            ['POST', '/api/admin/members/invite', body, AUTH],
            ['POST', `/api/admin/members/${p}/password-reset`, '{}', AUTH],
            ['POST', '/sdk/v1/b2b/organizations/me/members/search', body, basic],
            ['PUT', `/sdk/v1/b2b/organizations/members/${p}`, body, basic],
            ['DELETE', `/sdk/v1/b2b/organizations/members/${p}`, undefined, basic],
            ['PUT', `/sdk/v1/b2b/organizations/members/${p}/reactivate`, undefined, basic],
            ['DELETE', `/sdk/v1/b2b/organizations/members/passwords/${p}`, undefined, basic],
            ['DELETE', `/sdk/v1/b2b/organizations/members/mfa_phone_numbers/${p}`, undefined, basic],
            ['POST', `/sdk/v1/b2b/sessions/revoke/${p}`, undefined, basic],
          ] as const) {
            expect(await send(method, url, payload, headers)).toBeLessThan(500)
          }
        },
      ),
    )
  })

  it('malformed requests: bad encodings, bodies, content types and sizes', async () => {
    const cases: { method: string; url: string; payload?: string; headers?: Record<string, string> }[] = [
      { method: 'GET', url: '/api/data/buildings/records?limit=%E0%A4%A' },
      { method: 'GET', url: '/api/data/%E0%A4%A/records' },
      { method: 'GET', url: '/api/tiles/buildings/mvt/%ff/1/1' },
      { method: 'GET', url: `/api/data/buildings/records?${'filters=x&'.repeat(2000)}` },
      { method: 'GET', url: `/api/data/buildings/records?sort=${'a'.repeat(20000)}` },
      { method: 'GET', url: '/api/data/buildings/records?limit[]=1&offset[a]=2' },
      { method: 'GET', url: '/api/data/buildings/records?__proto__[x]=1&constructor=1' },
      {
        method: 'PUT',
        url: '/api/me/preferences',
        payload: '{"a":',
        headers: { 'content-type': 'application/json' },
      },
      {
        method: 'PUT',
        url: '/api/me/preferences',
        payload: 'a=1',
        headers: { 'content-type': 'text/plain' },
      },
      {
        method: 'PUT',
        url: '/api/me/preferences',
        payload: '',
        headers: { 'content-type': 'application/json' },
      },
      {
        method: 'PUT',
        url: '/api/me/preferences',
        payload: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
        headers: { 'content-type': 'application/json' },
      },
      {
        method: 'POST',
        url: '/sdk/v1/b2b/passwords/authenticate',
        payload: `{"x":"${'a'.repeat(2_000_000)}"}`,
        headers: { 'content-type': 'application/json' },
      },
      {
        method: 'POST',
        url: '/sdk/v1/b2b/passwords/authenticate',
        payload: '\xff\xfe',
        headers: { 'content-type': 'application/json; charset=utf-16' },
      },
      {
        method: 'POST',
        url: '/sdk/v1/b2b/otps/sms/send',
        payload: '[]',
        headers: { 'content-type': 'application/json' },
      },
      {
        method: 'POST',
        url: '/api/alerts/1/ack',
        payload: 'null',
        headers: { 'content-type': 'application/json' },
      },
      {
        method: 'GET',
        url: '/api/data/buildings/records',
        headers: { authorization: `Bearer ${'x'.repeat(100_000)}` },
      },
      { method: 'GET', url: '/api/data/buildings/records', headers: { cookie: `stytch_session=%E0%A4%A` } },
      { method: 'PATCH', url: '/api/data/buildings/records' },
      { method: 'OPTIONS', url: '/api/data/buildings/records' },
    ]
    for (const c of cases) {
      const headers = { ...AUTH, ...c.headers }
      expect(
        await send(c.method, c.url, c.payload, headers),
        `${c.method} ${c.url.slice(0, 80)}`,
      ).toBeLessThan(500)
    }
  })

  it('left the datasets and the members as they were', async () => {
    expect(failures).toEqual([])
    expect(await snapshot()).toBe(before)
  })
})

// Numbers in every spelling (issue #29): every numeric query, path and body parameter of every route,
// read from the route table, refuses non-finite values, overflowing exponents, hex, signs, whitespace,
// values past its bounds and repetition with a 400 naming it, and never answers 5xx. The app here
// signs its requests in as an administrator, so the admin pages' numbers reach validation too.
describe('numbers in every spelling, for every numeric parameter of every route', () => {
  const ADMIN = { authorization: 'Bearer numbers-admin' }
  const admin: SessionVerifier = {
    async verify(credential) {
      const member = credential === 'numbers-admin' ? await testVerifier.verify(TEST_TOKEN) : null
      return member && { ...member, roles: ['stytch_member', 'stytch_admin'] }
    },
  }
  let app: FastifyInstance
  let params: NumericParam[]
  const wrong: string[] = []

  beforeAll(async () => {
    app = await buildApp({ dataDir: t.dataDir, demo: true, store: t.store, verifier: admin })
    params = numericParams(app.routeTable).filter((p) => !p.url.startsWith('/ogc'))
  }, 60_000)
  afterAll(async () => {
    await app.close()
  })

  /** Sends one spelling (or a repeated one) and records what is not a 400 naming the parameter. */
  async function refused(p: NumericParam, values: string[]): Promise<void> {
    const r = spelledRequest(p, values, params)
    const res = await sendSpelled(app, r, ADMIN)
    requests++
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
    if (res.status >= 500)
      failures.push(`${r.method} ${r.url} ${r.payload ?? ''} → ${res.status} ${res.body}`)
    // The router answers 414 for a path segment longer than Fastify's maxParamLength (100) before
    // any route sees it; anything else bad is the parameter's 400.
    const tooLong = p.part === 'params' && (values[0] ?? '').length > 100
    if (tooLong ? res.status !== 414 : res.status !== 400 || res.parameter !== p.name)
      wrong.push(`${r.method} ${r.url} ${r.payload ?? ''} → ${res.status} ${res.body.slice(0, 160)}`)
  }

  it('finds the numeric parameters of the records, tiles, grids, basemap, admin and SDK routes', () => {
    const names = new Set(params.map((p) => `${p.method} ${p.url} ${p.part}.${p.name}`))
    for (const expected of [
      'GET /api/data/:dataset/records querystring.limit',
      'GET /api/data/:dataset/records querystring.offset',
      'GET /api/tiles/buildings/mvt/:z/:x/:y params.y',
      'GET /api/tiles/slope/png/:z/:x/:y params.z',
      'GET /api/tiles/wind_gust_speed/next_psps/png/:z/:x/:y querystring.hour',
      'GET /api/basemap/:z/:x/:y params.z',
      'GET /api/data/wind_vectors/grid/:tilesetId querystring.hour',
      'GET /api/admin/audit querystring.page',
      'GET /api/admin/audit querystring.limit',
      'GET /api/admin/alert-deliveries querystring.limit',
      'POST /sdk/v1/b2b/organizations/me/members/search body.limit',
      'POST /sdk/v1/b2b/passwords/authenticate body.session_duration_minutes',
    ])
      expect(names).toContain(expected)
  })

  it("the attacker's corpus (issue #29): each request is a 400 naming its parameter", async () => {
    for (const [url, parameter] of [
      ['/api/data/buildings/records?limit=10&offset=Infinity', 'offset'],
      ['/api/data/buildings/records?limit=10&offset=1e309', 'offset'],
      ['/api/data/buildings/records?offset=0x10', 'offset'],
      ['/api/admin/audit?page=1e309', 'page'],
      ['/api/admin/audit?limit=Infinity', 'limit'],
      ['/api/admin/alert-deliveries?limit=1e309', 'limit'],
      ['/api/tiles/buildings/mvt/1/0/-Infinity', 'y'],
      ['/api/tiles/wind_gust_speed/next_psps/png/7/26/51?hour=-Infinity', 'hour'],
      ['/api/basemap/Infinity/0/0', 'z'],
    ]) {
      const res = await app.inject({ url, headers: ADMIN })
      expect(res.statusCode, url).toBe(400)
      expect(res.json(), url).toMatchObject({ error: 'bad_request', parameter })
    }
  })

  it('every route refuses each bad spelling of each numeric parameter with a 400 naming it', async () => {
    for (const p of params) {
      for (const v of badSpellingTable(p.schema)) {
        // An empty path segment is another URL (the router's, not the parameter's).
        if (p.part === 'params' && v === '') continue
        await refused(p, [v])
      }
      if (p.part !== 'params') {
        const one = String(Math.max(1, Math.ceil(p.schema.minimum)))
        await refused(p, [one, one])
      }
    }
    expect(wrong.slice(0, 20)).toEqual([])
    expect(failures).toEqual([])
  }, 300_000)

  it('numbers the handlers read themselves: planning hour and threshold.<key>, mitigation weight.<factor>', async () => {
    const settings = operationsConfig.planning
    const circuit = settings && (await t.store.allFeatures(settings.dataset))[0]
    const key = settings && circuit ? String(circuit.properties[settings.key]) : undefined
    expect(key).toBeDefined()
    const factor = operationsConfig.mitigation?.consequence[0]?.id
    expect(factor).toBeDefined()
    const hand: [string, NumberSchema][] = [
      [
        '/api/planning?hour=',
        { type: 'integer', minimum: 0, maximum: (operationsConfig.planning?.hours ?? 1) - 1 },
      ],
      [
        `/api/planning?threshold.${encodeURIComponent(key ?? '')}=`,
        { type: 'number', minimum: 0, maximum: 500 },
      ],
      [`/api/mitigation?weight.${factor}=`, { type: 'number', minimum: 0, maximum: 1_000_000 }],
    ]
    const named = (url: string) => decodeURIComponent(url.slice(url.indexOf('?') + 1, -1))
    const refusedHere = async (url: string, values: string[]) => {
      const full = values.map(
        (v, i) => `${i ? `&${url.slice(url.indexOf('?') + 1)}` : url}${encodeURIComponent(v)}`,
      )
      const res = await app.inject({ url: full.join(''), headers: ADMIN })
      requests++
      if (res.statusCode >= 500) failures.push(`${full.join('')} → ${res.statusCode}`)
      if (res.statusCode !== 400 || res.json<{ parameter?: string }>().parameter !== named(url))
        wrong.push(`${full.join('')} → ${res.statusCode} ${res.body.slice(0, 160)}`)
    }
    for (const [url, schema] of hand) {
      for (const v of badSpellingTable(schema)) await refusedHere(url, [v])
      await refusedHere(url, ['1', '2'])
      await fc.assert(
        fc.asyncProperty(badSpelling(schema), async (v) => refusedHere(url, [v])),
        { seed: SEED, numRuns: 100 },
      )
      // Plain values are taken.
      const ok = await app.inject({ url: `${url}1`, headers: ADMIN })
      expect(ok.statusCode, `${url}1 ${ok.body.slice(0, 200)}`).toBe(200)
    }
    expect(wrong.slice(0, 20)).toEqual([])
  })

  it('random spellings: bad ones answer 400 naming the parameter, plain ones never 5xx', async () => {
    const cases = fc.constantFrom(...params).chain((p) =>
      fc.tuple(
        fc.constant(p),
        fc.oneof(
          { arbitrary: badSpelling(p.schema).map((v) => ({ bad: true, values: [v] })), weight: 4 },
          {
            arbitrary: fc
              .array(goodSpelling(p.schema), { minLength: 2, maxLength: 3 })
              .map((values) => ({ bad: p.part !== 'params', values })),
            weight: 1,
          },
          { arbitrary: goodSpelling(p.schema).map((v) => ({ bad: false, values: [v] })), weight: 1 },
        ),
      ),
    )
    await fc.assert(
      fc.asyncProperty(cases, async ([p, { bad, values }]) => {
        if (bad) return refused(p, p.part === 'params' ? values.slice(0, 1) : values)
        const r = spelledRequest(p, values, params)
        const res = await sendSpelled(app, r, ADMIN)
        requests++
        expect(res.status, `${r.method} ${r.url} ${r.payload ?? ''}`).toBeLessThan(500)
      }),
      { seed: SEED, numRuns: 1000 },
    )
    expect(wrong.slice(0, 20)).toEqual([])
    expect(failures).toEqual([])
  }, 300_000)
})
