/**
 * A gridded field on a regular longitude/latitude grid (EPSG:4326). Row 0 is the northern row;
 * cell (i, j) covers lon west + i*dx .. west + (i+1)*dx. NaN marks "no data".
 */
export interface GridRaster {
  readonly nx: number
  readonly ny: number
  readonly west: number
  readonly south: number
  readonly east: number
  readonly north: number
  readonly data: Float32Array
}

/** The extent and size of a grid, without values. */
export type GridShape = Omit<GridRaster, 'data'>

export function emptyRaster(shape: GridShape, fill = Number.NaN): GridRaster {
  return { ...shapeOf(shape), data: new Float32Array(shape.nx * shape.ny).fill(fill) }
}

export function shapeOf(grid: GridShape): GridShape {
  const { nx, ny, west, south, east, north } = grid
  return { nx, ny, west, south, east, north }
}

export function cellLon(grid: GridShape, i: number): number {
  return grid.west + ((i + 0.5) * (grid.east - grid.west)) / grid.nx
}

export function cellLat(grid: GridShape, j: number): number {
  return grid.north - ((j + 0.5) * (grid.north - grid.south)) / grid.ny
}

/** Calls fn for every cell with its centre; fn returns the cell value. */
export function fillRaster(
  grid: GridRaster,
  fn: (lon: number, lat: number, index: number) => number,
): GridRaster {
  for (let j = 0; j < grid.ny; j++) {
    const lat = cellLat(grid, j)
    for (let i = 0; i < grid.nx; i++) grid.data[j * grid.nx + i] = fn(cellLon(grid, i), lat, j * grid.nx + i)
  }
  return grid
}

/** Nearest-cell value at a longitude/latitude, NaN outside the grid. */
export function sampleNearest(grid: GridRaster, lon: number, lat: number): number {
  const fx = ((lon - grid.west) / (grid.east - grid.west)) * grid.nx
  const fy = ((grid.north - lat) / (grid.north - grid.south)) * grid.ny
  if (fx < 0 || fy < 0 || fx >= grid.nx || fy >= grid.ny) return Number.NaN
  return grid.data[Math.floor(fy) * grid.nx + Math.floor(fx)]!
}

/**
 * Bilinear value between cell centres; at the grid's outer half-cell and beside no-data cells it
 * uses the available neighbours (weights renormalised), so edges are not eaten away.
 */
export function sampleBilinear(grid: GridRaster, lon: number, lat: number): number {
  const fx = ((lon - grid.west) / (grid.east - grid.west)) * grid.nx - 0.5
  const fy = ((grid.north - lat) / (grid.north - grid.south)) * grid.ny - 0.5
  if (fx < -0.5 || fy < -0.5 || fx >= grid.nx - 0.5 || fy >= grid.ny - 0.5) return Number.NaN
  const i0 = Math.floor(fx)
  const j0 = Math.floor(fy)
  const tx = fx - i0
  const ty = fy - j0
  let sum = 0
  let weight = 0
  for (let dj = 0; dj < 2; dj++) {
    const j = j0 + dj
    if (j < 0 || j >= grid.ny) continue
    const wy = dj === 0 ? 1 - ty : ty
    for (let di = 0; di < 2; di++) {
      const i = i0 + di
      if (i < 0 || i >= grid.nx) continue
      const v = grid.data[j * grid.nx + i]!
      const w = wy * (di === 0 ? 1 - tx : tx)
      if (Number.isNaN(v) || w === 0) continue
      sum += v * w
      weight += w
    }
  }
  if (weight === 0) return Number.NaN
  // The cell containing the point must hold data: no-data areas stay transparent.
  const own = sampleNearest(grid, lon, lat)
  return Number.isNaN(own) ? Number.NaN : sum / weight
}
