import { VectorTile } from '@mapbox/vector-tile'
import Pbf from 'pbf'
import { describe, expect, it } from 'vitest'
import { fromGeojsonVt } from 'vt-pbf'
import { overzoomTile } from './overzoomTile'

// A z14 tile (extent 4096): a square in its top-left quarter, a line across it, a point in its
// bottom-right quarter. Its z15 children are those features scaled ×2 about the child's corner
// and clipped to the child's box with the 64-unit buffer.
const parent = fromGeojsonVt(
  {
    homes: {
      features: [
        {
          type: 3,
          geometry: [
            [
              [100, 100],
              [1000, 100],
              [1000, 1000],
              [100, 1000],
              [100, 100],
            ],
          ],
          tags: { town: 'a' },
        },
        {
          type: 2,
          geometry: [
            [
              [0, 1500],
              [4096, 1500],
            ],
          ],
          tags: { town: 'line' },
        },
        { type: 1, geometry: [[3000, 3000]], tags: { town: 'p' } },
      ],
    },
  },
  { version: 2, extent: 4096 },
)

function decode(pbf: Uint8Array) {
  const layer = new VectorTile(new Pbf(pbf)).layers.homes!
  return Array.from({ length: layer.length }, (_, i) => {
    const f = layer.feature(i)
    return {
      type: f.type,
      town: f.properties.town,
      geometry: f.loadGeometry().map((r) => r.map((p) => [p.x, p.y])),
    }
  })
}

describe('overzoomTile', () => {
  it('scales and clips the parent features into each child, with their properties', () => {
    // Top-left child (z15, x = 2·x14, y = 2·y14): the square doubled, the line at y 3000.
    const tl = decode(overzoomTile(parent, 'homes', 14, 15, 2 * 10, 2 * 20)!.pbf)
    expect(tl.map((f) => f.town)).toEqual(['a', 'line'])
    const square = tl[0]!.geometry[0]!
    expect(square).toContainEqual([200, 200])
    expect(square).toContainEqual([2000, 2000])
    // The line is clipped to the child's box plus the buffer (-64..4160).
    const line = tl[1]!.geometry[0]!
    expect(line[0]).toEqual([0, 3000])
    expect(line.at(-1)).toEqual([4160, 3000])
    // Bottom-right child: only the point, at (3000 − 2048) × 2.
    const br = decode(overzoomTile(parent, 'homes', 14, 15, 2 * 10 + 1, 2 * 20 + 1)!.pbf)
    expect(br).toEqual([{ type: 1, town: 'p', geometry: [[[1904, 1904]]] }])
  })

  it('answers null when nothing of the parent falls in the child, and two zooms down scales ×4', () => {
    // Top-right child: only the line (it crosses the whole parent at y 1500).
    const tr = decode(overzoomTile(parent, 'homes', 14, 15, 2 * 10 + 1, 2 * 20)!.pbf)
    expect(tr.map((f) => f.town)).toEqual(['line'])
    // z16, the tile at the parent's bottom-left corner: nothing there.
    expect(overzoomTile(parent, 'homes', 14, 16, 4 * 10, 4 * 20 + 3)).toBeNull()
    // z16 over the square's corner (100,100)·4 = (400,400).
    const z16 = decode(overzoomTile(parent, 'homes', 14, 16, 4 * 10, 4 * 20)!.pbf)
    expect(z16[0]!.geometry[0]).toContainEqual([400, 400])
  })
})
