import fs from 'node:fs'
import path from 'node:path'
import type { Geometry } from 'geojson'
import { buildApp } from '../../src/server/app'
import type { SessionVerifier } from '../../src/server/auth/sessionVerifier'
import { seedDemo } from '../../src/demo/seedDemo'
import { appConfig } from '../../src/shared/config'
import { zonedInstant } from '../../src/shared/time/zonedInstant'
import type { GeometryKind } from '../../src/server/store/catalog'
import { defaultCatalog } from '../../src/server/store/catalog'
import { decodeParts, partsToGeometry } from '../../src/server/store/geometryCodec'
import type { AppStore } from '../../src/server/store/AppStore'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import type { FeatureInput } from '../../src/server/store/writeDataset'
import { tempDir, testApp, type TestApp } from './testApp'

/** Members of the delivery tests: the token is `token-<name>`, the member id `member-<name>`. */
export const MEMBERS = {
  subscribed: { phone: '+15055550101', roles: ['stytch_member'] },
  unsubscribed: { phone: '+15055550102', roles: ['stytch_member'] },
  quiet: { phone: '+15055550103', roles: ['stytch_member'] },
  admin: { phone: '+15055550104', roles: ['stytch_admin'] },
} as const
export type MemberName = keyof typeof MEMBERS

export const auth = (name: MemberName) => ({ authorization: `Bearer token-${name}` })

const verifier: SessionVerifier = {
  async verify(credential) {
    const name = /^token-(\w+)$/.exec(credential)?.[1] as MemberName | undefined
    if (!name || !(name in MEMBERS)) return null
    return {
      memberId: `member-${name}`,
      sessionId: `session-${name}`,
      organizationId: 'organization-test',
      roles: [...MEMBERS[name].roles],
      expiresAt: new Date(Date.now() + 3_600_000),
    }
  },
}

/** A seeded store with the four members, and the app over it (demo mode: the demo clock). */
export async function deliveryApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = tempDir('emberline-delivery-')
  const store = await openDataDirStore(dataDir, defaultCatalog())
  await seedDemo(store, { buildings: 300, steps: [] })
  const identity = store.members
  for (const [name, m] of Object.entries(MEMBERS)) {
    await identity.insertMember({
      memberId: `member-${name}`,
      organizationId: 'organization-test',
      email: `${name}@emberline.test`,
      name,
      phone: m.phone,
      roles: [...m.roles],
      status: 'active',
      passwordHash: null,
      passwordId: null,
      createdAt: 0,
      updatedAt: 0,
    })
  }
  const saved = { ...process.env }
  Object.assign(process.env, env)
  const app = await buildApp({ dataDir, demo: true, store, verifier })
  process.env = saved
  return testApp(app, store, dataDir)
}

/** The demo's "now" (noon of the reference date): hazard times are set relative to it. */
export const demoNow = zonedInstant(appConfig.demo.referenceDate, 12, appConfig.demo.timeZone)

/** Replaces a dataset with its current features plus `extra` (as an import of the updated file does). */
export async function importWith(
  store: AppStore,
  dataset: string,
  kind: GeometryKind,
  extra: FeatureInput[],
): Promise<void> {
  const current = (await store.allFeatures(dataset)).map((f): FeatureInput => ({
    geometry: partsToGeometry(decodeParts(f.geom), kind) as Geometry,
    properties: f.properties,
  }))
  await store.replaceDataset(dataset, [...current, ...extra])
}

/** First vertex of the first asset of the rule's first alert: a point on a line that rule watches. */
export async function assetVertex(t: TestApp, ruleId: string): Promise<[number, number]> {
  const alert = (await t.app.alertsEngine.evaluate()).alerts.find((a) => a.ruleId === ruleId)
  if (!alert) throw new Error(`no alert of ${ruleId} in the demo data`)
  const asset = t.app.alertsEngine.geometry(alert).features.find((f) => f.properties?.role === 'asset')
  const g = asset?.geometry
  const first = (coords: unknown): [number, number] =>
    Array.isArray(coords) && typeof coords[0] === 'number'
      ? [coords[0], Number(coords[1])]
      : first((coords as unknown[])[0])
  if (!g || g.type === 'GeometryCollection') throw new Error('asset without geometry')
  return first(g.coordinates)
}

/** A hotspot acquired an hour before the demo's now at `at` (raises young-hotspot-near-distribution). */
export function hotspot(at: [number, number], n: number): FeatureInput {
  return {
    geometry: { type: 'Point', coordinates: [at[0] + n * 1e-4, at[1]] },
    properties: {
      satellite: `TEST-${n}`,
      confidence: 'high',
      radiative_power_mw: 10 + n,
      temperature_c: 400,
      intensity_score: 3,
      acquired: new Date(demoNow - 3_600_000).toISOString(),
    },
  }
}

/** An uncontained fire perimeter around `at` (raises active-fire-near-transmission, Critical). */
export function activeFire(at: [number, number], name: string): FeatureInput {
  const [x, y] = at
  const d = 0.002
  return {
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [x - d, y - d],
          [x + d, y - d],
          [x + d, y + d],
          [x - d, y + d],
          [x - d, y - d],
        ],
      ],
    },
    properties: {
      incident_name: name,
      percent_contained: 5,
      modified: new Date(demoNow).toISOString(),
      acres: 50,
    },
  }
}

export interface OutboxLine {
  channel: string
  to: string
  kind?: string
  alertIds?: string[]
  text: string
  link?: string
  subject?: string
}

/** Alert messages (lines with a `kind`) in the outbox of a channel, optionally to one recipient. */
export function alertOutbox(dataDir: string, channel: 'sms' | 'email', to?: string): OutboxLine[] {
  const file = path.join(dataDir, 'outbox', `${channel}.jsonl`)
  if (!fs.existsSync(file)) return []
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as OutboxLine)
    .filter((m) => m.kind !== undefined && (!to || m.to === to))
}
