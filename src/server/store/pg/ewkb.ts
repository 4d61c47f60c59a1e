import os from 'node:os'
import type { GeometryKind } from '../catalog'

/** WKB type codes (OGC Simple Features) and the EWKB flag that an SRID follows the type. */
const TYPE = { point: 1, line: 2, polygon: 3 } as const
const MULTI = 3
const HAS_SRID = 0x20000000
export const SRID = 4326
/** The blob's doubles are in this machine's byte order; the EWKB says which (1 = little-endian). */
const LE = os.endianness() === 'LE'

function f64(blob: Uint8Array): Float64Array {
  return blob.byteOffset % 8 === 0
    ? new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength >> 3)
    : new Float64Array(new Uint8Array(blob).buffer) // a copy: Buffer#slice would be a view
}

/** Whether the ring of `n` points at double `k` ends where it starts. */
function closed(a: Float64Array, k: number, n: number): boolean {
  return a[k] === a[k + 2 * n - 2] && a[k + 1] === a[k + 2 * n - 1]
}

/**
 * A stored geometry blob (geometryCodec: [nParts, (nRings, (nPoints, lon, lat…)…)…]) as
 * EWKB with SRID 4326 in the machine's byte order, the value of the `geometry(Geometry, 4326)` column: one
 * part as the single type, several as the multi type (as partsToGeometry). A polygon ring that
 * GeoJSON left open is closed here (PostGIS refuses open rings; the blob, which the tiles and the
 * API read, keeps it as given, as in SQLite). Null for a blob of no parts (a record kept without
 * geometry).
 */
export function blobToEwkb(blob: Uint8Array, kind: GeometryKind): Buffer | null {
  const a = f64(blob)
  const nParts = a[0] as number
  if (!nParts) return null
  // Size: header (1 + 4 + 4 SRID) [+ 4 count], then per part 1 + 4 [+ 4 rings] + per ring [4 +] 16 per point.
  let size = 9 + (nParts > 1 ? 4 : 0)
  let k = 1
  for (let p = 0; p < nParts; p++) {
    const nRings = a[k++] as number
    if (nParts > 1) size += 5
    if (kind === 'polygon') size += 4
    for (let r = 0; r < nRings; r++) {
      const n = a[k++] as number
      if (kind !== 'point') size += 4
      size += 16 * (kind === 'point' ? 1 : n + (kind === 'polygon' && !closed(a, k, n) ? 1 : 0))
      k += 2 * n
    }
  }
  // The blob's coordinates are doubles in WKB's order: copied ring by ring.
  const src = Buffer.from(a.buffer, a.byteOffset, a.byteLength)
  const out = Buffer.allocUnsafe(size)
  let at = 0
  const u32 = (v: number, offset: number): number =>
    LE ? out.writeUInt32LE(v, offset) : out.writeUInt32BE(v, offset)
  const header = (type: number, srid: boolean): void => {
    out.writeUInt8(LE ? 1 : 0, at)
    u32(srid ? type | HAS_SRID : type, at + 1)
    at += 5
    if (srid) {
      u32(SRID, at)
      at += 4
    }
  }
  const multi = nParts > 1
  if (multi) {
    header(TYPE[kind] + MULTI, true)
    u32(nParts, at)
    at += 4
  }
  k = 1
  for (let p = 0; p < nParts; p++) {
    const nRings = a[k++] as number
    header(TYPE[kind], !multi)
    if (kind === 'polygon') {
      u32(nRings, at)
      at += 4
    }
    for (let r = 0; r < nRings; r++) {
      const n = a[k++] as number
      if (kind === 'point') {
        // A point part is one ring of one position.
        src.copy(out, at, 8 * k, 8 * k + 16)
        at += 16
        k += 2 * n
        continue
      }
      const close = kind === 'polygon' && !closed(a, k, n)
      u32(close ? n + 1 : n, at)
      at += 4
      src.copy(out, at, 8 * k, 8 * (k + 2 * n))
      at += 16 * n
      if (close) {
        src.copy(out, at, 8 * k, 8 * k + 16)
        at += 16
      }
      k += 2 * n
    }
  }
  return out
}
