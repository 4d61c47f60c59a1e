import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../app'
import type { AppStore } from '../../store/AppStore'

/** The app over a store with a verifier that accepts any bearer token (the tile-archive tests). */
export function appAcceptingAnyToken(dir: string, store: AppStore): Promise<FastifyInstance> {
  return buildApp({
    dataDir: dir,
    demo: false,
    store,
    verifier: {
      verify: async () => ({
        memberId: 'm',
        sessionId: 's',
        organizationId: 'o',
        roles: [],
        expiresAt: new Date(Date.now() + 60_000),
      }),
    },
  })
}

/** Every tile [x, y] of zoom z over a lon/lat box (Web Mercator tile numbers). */
export function tilesOverBox(
  z: number,
  [west, south, east, north]: readonly [number, number, number, number],
): [number, number][] {
  const n = 2 ** z
  const tx = (lon: number): number => Math.floor(((lon + 180) / 360) * n)
  const ty = (lat: number): number => {
    const s = Math.sin((lat * Math.PI) / 180)
    return Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)
  }
  const out: [number, number][] = []
  for (let x = tx(west); x <= tx(east); x++) for (let y = ty(north); y <= ty(south); y++) out.push([x, y])
  return out
}

/** A closed square ring of side r degrees with its south-west corner at lon/lat. */
export function squareRing(lon: number, lat: number, r: number): [number, number][] {
  return [
    [lon, lat],
    [lon + r, lat],
    [lon + r, lat + r],
    [lon, lat + r],
    [lon, lat],
  ]
}
