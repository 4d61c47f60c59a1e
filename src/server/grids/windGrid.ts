import type { GridRaster } from './gridRaster'

/** Internal grids holding the hourly wind components (mph, towards east / north). */
export const WIND_U_GRID = 'wind_u'
export const WIND_V_GRID = 'wind_v'

/** The grib2json header leaflet-velocity and similar particle layers read. */
export interface WindHeader {
  discipline: 0
  parameterCategory: 2
  /** 2 = U component (towards east), 3 = V component (towards north). */
  parameterNumber: 2 | 3
  parameterNumberName: 'U-component_of_wind' | 'V-component_of_wind'
  parameterUnit: 'mph'
  refTime: string
  forecastTime: number
  surface1Type: 103
  surface1Value: 10
  numberPoints: number
  gridUnits: 'degrees'
  scanMode: 0
  nx: number
  ny: number
  /** Longitude and latitude of the first point: the north-west cell centre. */
  lo1: number
  la1: number
  /** Longitude and latitude of the last point: the south-east cell centre. */
  lo2: number
  la2: number
  dx: number
  dy: number
}

export interface WindRecord {
  header: WindHeader
  /** Row by row from the north, west to east; null where there is no value. */
  data: (number | null)[]
}

const round2 = (v: number): number | null => (Number.isNaN(v) ? null : Math.round(v * 100) / 100)

function record(grid: GridRaster, parameterNumber: 2 | 3, refTime: string, hour: number): WindRecord {
  const dx = (grid.east - grid.west) / grid.nx
  const dy = (grid.north - grid.south) / grid.ny
  const lo1 = grid.west + dx / 2
  const la1 = grid.north - dy / 2
  const r6 = (v: number): number => Math.round(v * 1e6) / 1e6
  return {
    header: {
      discipline: 0,
      parameterCategory: 2,
      parameterNumber,
      parameterNumberName: parameterNumber === 2 ? 'U-component_of_wind' : 'V-component_of_wind',
      parameterUnit: 'mph',
      refTime,
      forecastTime: hour,
      surface1Type: 103,
      surface1Value: 10,
      numberPoints: grid.nx * grid.ny,
      gridUnits: 'degrees',
      scanMode: 0,
      nx: grid.nx,
      ny: grid.ny,
      lo1: r6(lo1),
      la1: r6(la1),
      lo2: r6(lo1 + (grid.nx - 1) * dx),
      la2: r6(la1 - (grid.ny - 1) * dy),
      dx: r6(dx),
      dy: r6(dy),
    },
    data: Array.from(grid.data, round2),
  }
}

/** The u and v records of one forecast hour, in the grib2json form (`[u, v]`). */
export function windRecords(
  u: GridRaster,
  v: GridRaster,
  refTime: string,
  hour: number,
): [WindRecord, WindRecord] {
  if (u.nx !== v.nx || u.ny !== v.ny) throw new Error('wind u and v grids differ in size')
  return [record(u, 2, refTime, hour), record(v, 3, refTime, hour)]
}

/** Speed (mph) and the direction the wind blows from (degrees clockwise from north). */
export function speedAndDirection(u: number, v: number): { speed: number; fromDeg: number } {
  const speed = Math.hypot(u, v)
  const fromDeg = ((Math.atan2(-u, -v) * 180) / Math.PI + 360) % 360
  return { speed, fromDeg }
}
