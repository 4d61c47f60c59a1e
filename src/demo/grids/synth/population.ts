import { emptyRaster, fillRaster, type GridRaster } from '../../../server/grids/gridRaster'
import { fbm } from './noise'

export interface Place {
  name: string
  lon: number
  lat: number
  population: number
}

/** Residents per km²: a Gaussian kernel around each place (wider for larger places), a rural floor. */
export function populationGrid(shape: GridRaster, places: readonly Place[], seed: number): GridRaster {
  const kernels = places.map((p) => {
    const sigmaKm = 1 + Math.sqrt(p.population) / 130
    return { ...p, sigmaKm, reachKm: 5 * sigmaKm, peak: p.population / (2 * Math.PI * sigmaKm * sigmaKm) }
  })
  return fillRaster(emptyRaster(shape), (lon, lat, k) => {
    if (Number.isNaN(shape.data[k]!)) return Number.NaN
    const kx = 111.32 * Math.cos((lat * Math.PI) / 180)
    let density = 0
    for (const p of kernels) {
      if (Math.abs(lat - p.lat) * 110.57 > p.reachKm) continue
      const dx = (lon - p.lon) * kx
      const dy = (lat - p.lat) * 110.57
      const d2 = dx * dx + dy * dy
      if (d2 < 25 * p.sigmaKm * p.sigmaKm) density += p.peak * Math.exp(-d2 / (2 * p.sigmaKm * p.sigmaKm))
    }
    const texture = 0.6 + 0.8 * fbm(lon * 30, lat * 30, seed + 41, 3)
    return density * texture + 3 * fbm(lon * 6, lat * 6, seed + 43, 2)
  })
}

/** Parses places CSV (header name,county,lat,lon,population,kind). */
export function parsePlaces(csv: string): Place[] {
  const [header, ...lines] = csv.trim().split(/\r?\n/)
  const cols = (header ?? '').split(',')
  const at = (name: string): number => {
    const i = cols.indexOf(name)
    if (i < 0) throw new Error(`places CSV has no ${name} column`)
    return i
  }
  const [iName, iLat, iLon, iPop] = [at('name'), at('lat'), at('lon'), at('population')]
  return lines.map((line) => {
    const f = line.split(',')
    return { name: f[iName] ?? '', lat: Number(f[iLat]), lon: Number(f[iLon]), population: Number(f[iPop]) }
  })
}
