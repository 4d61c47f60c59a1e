import type { GeometryKind } from '../store/catalog'
import type { Parts } from '../store/geometryCodec'

/** WKB geometry type codes (ISO 19125 / OGC Simple Features). */
const WKB = { point: 1, line: 2, polygon: 3, multipoint: 4, multiline: 5, multipolygon: 6 } as const

/** Geometry type names as gpkg_geometry_columns spells them. */
export function geometryTypeName(kind: GeometryKind, multi: boolean): string {
  const single = { point: 'POINT', line: 'LINESTRING', polygon: 'POLYGON' }[kind]
  return multi ? `MULTI${single}` : single
}

/** Little-endian byte writer over a growable buffer. */
class Writer {
  private buf: Buffer
  private at = 0
  constructor(size: number) {
    this.buf = Buffer.alloc(size)
  }
  private room(n: number): void {
    if (this.at + n <= this.buf.length) return
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.at + n))
    this.buf.copy(next, 0, 0, this.at)
    this.buf = next
  }
  u8(v: number): void {
    this.room(1)
    this.buf.writeUInt8(v, this.at)
    this.at += 1
  }
  u32(v: number): void {
    this.room(4)
    this.buf.writeUInt32LE(v, this.at)
    this.at += 4
  }
  i32(v: number): void {
    this.room(4)
    this.buf.writeInt32LE(v, this.at)
    this.at += 4
  }
  f64(v: number): void {
    this.room(8)
    this.buf.writeDoubleLE(v, this.at)
    this.at += 8
  }
  bytes(): Buffer {
    return this.buf.subarray(0, this.at)
  }
}

function points(w: Writer, ring: readonly number[][]): void {
  w.u32(ring.length)
  for (const p of ring) {
    w.f64(p[0] as number)
    w.f64(p[1] as number)
  }
}

/** One part (point, line or polygon) as little-endian WKB. */
function partWkb(w: Writer, part: readonly (readonly number[][])[], kind: GeometryKind): void {
  w.u8(1)
  if (kind === 'point') {
    w.u32(WKB.point)
    const p = part[0]?.[0] ?? [0, 0]
    w.f64(p[0] as number)
    w.f64(p[1] as number)
  } else if (kind === 'line') {
    w.u32(WKB.line)
    points(w, part[0] ?? [])
  } else {
    w.u32(WKB.polygon)
    w.u32(part.length)
    for (const ring of part) points(w, ring)
  }
}

/**
 * A stored geometry as a GeoPackage binary geometry (GeoPackage 1.3 §2.1.3): the 'GP' header
 * (version 0, little-endian, xy envelope, srs_id) followed by standard WKB. One part is written
 * as a single geometry, several as the multi type.
 */
export function geoPackageGeometry(
  parts: Parts,
  kind: GeometryKind,
  srsId: number,
): { blob: Buffer; multi: boolean; envelope: [number, number, number, number] } {
  let minx = Infinity
  let miny = Infinity
  let maxx = -Infinity
  let maxy = -Infinity
  for (const part of parts)
    for (const ring of part)
      for (const p of ring) {
        const x = p[0] as number
        const y = p[1] as number
        if (x < minx) minx = x
        if (x > maxx) maxx = x
        if (y < miny) miny = y
        if (y > maxy) maxy = y
      }
  const w = new Writer(64 + parts.length * 64)
  w.u8(0x47) // 'G'
  w.u8(0x50) // 'P'
  w.u8(0) // version 1
  w.u8(0b0000_0011) // flags: standard binary, not empty, envelope [minx, maxx, miny, maxy], little-endian
  w.i32(srsId)
  w.f64(minx)
  w.f64(maxx)
  w.f64(miny)
  w.f64(maxy)
  const multi = parts.length !== 1
  if (!multi) partWkb(w, parts[0] ?? [], kind)
  else {
    w.u8(1)
    w.u32(kind === 'point' ? WKB.multipoint : kind === 'line' ? WKB.multiline : WKB.multipolygon)
    w.u32(parts.length)
    for (const part of parts) partWkb(w, part, kind)
  }
  return { blob: w.bytes(), multi, envelope: [minx, miny, maxx, maxy] }
}
