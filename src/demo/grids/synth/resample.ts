import { emptyRaster, type GridRaster } from '../../../server/grids/gridRaster'

/** Block average by an integer factor (no-data cells ignored; all no-data → no data). */
export function downsample(grid: GridRaster, factor: number): GridRaster {
  const nx = Math.floor(grid.nx / factor)
  const ny = Math.floor(grid.ny / factor)
  const east = grid.west + ((grid.east - grid.west) / grid.nx) * nx * factor
  const south = grid.north - ((grid.north - grid.south) / grid.ny) * ny * factor
  const out = emptyRaster({ nx, ny, west: grid.west, east, north: grid.north, south })
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      let sum = 0
      let n = 0
      for (let b = 0; b < factor; b++) {
        for (let a = 0; a < factor; a++) {
          const v = grid.data[(j * factor + b) * grid.nx + i * factor + a]!
          if (!Number.isNaN(v)) {
            sum += v
            n++
          }
        }
      }
      if (n > 0) out.data[j * nx + i] = sum / n
    }
  }
  return out
}
