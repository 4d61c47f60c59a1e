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

/** Box blur with the given radius in cells, no-data cells left as they are and not counted. */
export function boxBlur(grid: GridRaster, radius: number): GridRaster {
  const { nx, ny } = grid
  const pass = (src: Float32Array, horizontal: boolean): Float32Array => {
    const dst = new Float32Array(src.length).fill(Number.NaN)
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        if (Number.isNaN(src[j * nx + i]!)) continue
        let sum = 0
        let n = 0
        for (let d = -radius; d <= radius; d++) {
          const ii = horizontal ? i + d : i
          const jj = horizontal ? j : j + d
          if (ii < 0 || jj < 0 || ii >= nx || jj >= ny) continue
          const v = src[jj * nx + ii]!
          if (!Number.isNaN(v)) {
            sum += v
            n++
          }
        }
        dst[j * nx + i] = sum / n
      }
    }
    return dst
  }
  return { ...grid, data: pass(pass(grid.data, true), false) }
}
