import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { enviWarpArgs, readEnvi } from './readEnvi'

const run = promisify(execFile)
const dir = mkdtempSync(path.join(tmpdir(), 'emberline-envi-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** gdalwarp's ENVI output of a 3×2, two-band lon/lat raster (top-left -107, 35; 0.5° cells). */
async function warped(extra: string[] = []): Promise<{ header: string; bytes: Buffer }> {
  const values = new Float32Array([1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 50, Number.NaN])
  writeFileSync(path.join(dir, 'in.bin'), new Uint8Array(values.buffer))
  const band = (b: number): string =>
    `<VRTRasterBand dataType="Float32" band="${b}" subClass="VRTRawRasterBand"><SourceFilename relativetoVRT="1">in.bin</SourceFilename>
     <ImageOffset>${(b - 1) * 24}</ImageOffset><PixelOffset>4</PixelOffset><LineOffset>12</LineOffset><ByteOrder>LSB</ByteOrder></VRTRasterBand>`
  writeFileSync(
    path.join(dir, 'in.vrt'),
    `<VRTDataset rasterXSize="3" rasterYSize="2"><SRS>EPSG:4326</SRS><GeoTransform>-107, 0.5, 0, 35, 0, -0.5</GeoTransform>${band(1)}${band(2)}</VRTDataset>`,
  )
  const out = path.join(dir, 'out.bil')
  await run('gdalwarp', enviWarpArgs('near', extra, path.join(dir, 'in.vrt'), out))
  return { header: readFileSync(path.join(dir, 'out.hdr'), 'utf8'), bytes: readFileSync(out) }
}

const plain = (data: Float32Array): (number | null)[] => [...data].map((v) => (Number.isNaN(v) ? null : v))

describe('readEnvi (gdalwarp -of ENVI output)', () => {
  it('reads each band with its extent; NaN stays no data', async () => {
    const { header, bytes } = await warped()
    const [a, b, ...rest] = readEnvi(header, bytes)
    expect(rest).toEqual([])
    expect(a).toMatchObject({ nx: 3, ny: 2, west: -107, north: 35, east: -105.5, south: 34 })
    expect(plain(a!.data)).toEqual([1, 2, 3, 4, 5, 6])
    expect(plain(b!.data)).toEqual([10, 20, 30, 40, 50, null])
  })

  it('cells outside the source stay NaN on a larger target extent', async () => {
    const { header, bytes } = await warped(['-te', '-107.5', '34', '-105.5', '35', '-ts', '4', '2'])
    const [a] = readEnvi(header, bytes)
    expect(a).toMatchObject({ nx: 4, ny: 2, west: -107.5, east: -105.5 })
    expect(plain(a!.data)).toEqual([null, 1, 2, 3, null, 4, 5, 6])
  })

  it('refuses a header or data it cannot read exactly', async () => {
    const { header, bytes } = await warped()
    expect(() => readEnvi(header, bytes.subarray(0, 20))).toThrow(/20 bytes for 2 band\(s\) of 3×2/)
    expect(() => readEnvi(header.replace(/data type = 4/, 'data type = 5'), bytes)).toThrow(/Float32/)
    expect(() => readEnvi(header.replace(/byte order = 0/, 'byte order = 1'), bytes)).toThrow(/little-endian/)
    expect(() => readEnvi(header.replace(/map info[^\n]*/, ''), bytes)).toThrow(/map info/)
  })
})
