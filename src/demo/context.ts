import type { FeatureInput } from '../server/store/Store'
import type { Geography, Place } from './geography'
import { createRng, type Rng } from './prng'

/** Inputs every demo generator shares. */
export interface DemoContext {
  seed: number
  geo: Geography
  /** Reference "now" of the demo (reference date, noon local) and the next event start, in ms. */
  now: number
  nextEvent: number
  /** Where the demo map opens [lon, lat]: the PSPS/EPSS circuits and fires cluster around it. */
  focus: [number, number]
  /** Bearing the wind blows towards (degrees clockwise from north). */
  windTowards: number
  buildings: number
  rng(stream: string): Rng
}

export type FeatureList = FeatureInput[]

export function makeContext(
  seed: number,
  geo: Geography,
  now: number,
  nextEvent: number,
  focus: [number, number],
  buildings: number,
): DemoContext {
  return { seed, geo, now, nextEvent, focus, windTowards: 45, buildings, rng: (s) => createRng(seed, s) }
}

/** Places by population (largest first), stable for equal populations. */
export function placesByPopulation(places: readonly Place[]): Place[] {
  return [...places].sort((a, b) => b.population - a.population || a.name.localeCompare(b.name))
}

export function placeCode(p: Place): string {
  return p.name
    .replace(/[^A-Za-z ]/g, '')
    .split(/\s+/)
    .map((w) => w.slice(0, 3).toUpperCase())
    .join('')
    .slice(0, 6)
}
