import { gunzipSync, gzipSync } from 'node:zlib'
import { PMTiles, type RangeResponse, type Source } from 'pmtiles'
import { describe, expect, it } from 'vitest'
import { pmtilesBuffer, pmtilesParts, type PmtilesTile } from './pmtilesWriter'

/** An in-memory archive as the pmtiles package's range source. */
function bufferSource(buf: Buffer): Source {
  return {
    getKey: () => 'mem',
    getBytes: async (offset: number, length: number): Promise<RangeResponse> => ({
      data: buf.buffer.slice(
        buf.byteOffset + offset,
        buf.byteOffset + Math.min(buf.length, offset + length),
      ) as ArrayBuffer,
    }),
  }
}

describe('PMTiles v3 writer', () => {
  it('writes leaf directories when the root would not fit 16 KiB, and every tile reads back', async () => {
    // 40,000 scattered z12 tiles of varied lengths (an incompressible directory), stored plain.
    const tiles: PmtilesTile[] = []
    const label = (x: number, y: number) =>
      `tile 12/${x}/${y}${'.'.repeat(((Math.imul(x, 2654435761) ^ Math.imul(y, 40503)) >>> 0) % 251)}`
    for (let x = 0; x < 400; x += 2)
      for (let y = 0; y < 600; y += 3) tiles.push({ z: 12, x, y, data: Buffer.from(label(x, y)) })
    const { parts, summary } = pmtilesParts(tiles, {
      tileType: 1,
      tileCompression: 1,
      metadata: { name: 'grid' },
    })
    expect(summary.leaves).toBeGreaterThan(1)
    expect(summary).toMatchObject({ addressed: 40_000, entries: 40_000, contents: 40_000 })
    const pm = new PMTiles(bufferSource(Buffer.concat(parts)))
    const header = await pm.getHeader()
    expect(header.rootDirectoryLength + 127).toBeLessThanOrEqual(16_384)
    expect([header.clustered, header.minZoom, header.maxZoom, header.numAddressedTiles]).toEqual([
      true,
      12,
      12,
      40_000,
    ])
    expect(await pm.getMetadata()).toEqual({ name: 'grid' })
    for (const [x, y] of [
      [0, 0],
      [398, 597],
      [18, 201],
      [128, 6],
    ] as const) {
      const got = await pm.getZxy(12, x, y)
      expect(Buffer.from(got!.data).toString(), `${x}/${y}`).toBe(label(x, y))
    }
    expect(await pm.getZxy(12, 1, 0)).toBeUndefined()
  })

  it('stores identical tiles once (runs of consecutive ids as one entry) and leaves empty tiles out', async () => {
    const same = gzipSync(Buffer.from('water'))
    const tiles: PmtilesTile[] = [
      { z: 0, x: 0, y: 0, data: gzipSync(Buffer.from('world')) },
      ...[0, 1, 2, 3].flatMap((i) => [{ z: 2, x: i % 2, y: Math.floor(i / 2), data: same }]),
      { z: 2, x: 3, y: 3, data: same },
      { z: 1, x: 1, y: 1, data: Buffer.alloc(0) },
    ]
    const buf = pmtilesBuffer(tiles, { tileType: 1, tileCompression: 2 })
    const pm = new PMTiles(bufferSource(buf))
    const h = await pm.getHeader()
    expect([h.numAddressedTiles, h.numTileContents]).toEqual([6, 2])
    expect(h.numTileEntries).toBeLessThan(6)
    expect(await pm.getZxy(1, 1, 1)).toBeUndefined()
    for (const [z, x, y, want] of [
      [0, 0, 0, 'world'],
      [2, 1, 1, 'water'],
      [2, 3, 3, 'water'],
    ] as const)
      expect(Buffer.from((await pm.getZxy(z, x, y))!.data).toString()).toBe(want)
    // Tile bytes stay as given (gzip), the reader inflates them.
    expect(gunzipSync(same).toString()).toBe('water')
  })
})
