/** The signature, flags and header extension length that open a binary COPY stream. */
const HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)])

/**
 * Writes rows in PostgreSQL's binary COPY format (COPY … FROM STDIN (FORMAT binary)): per row
 * the field count, then each field as its length (-1 = NULL) and its bytes in the column type's
 * binary form — int4 and float8 big-endian, bytea and EWKB geometry raw, text as UTF-8. `take()`
 * hands out what is written so far (the header first, the trailer after `end()`).
 */
export class CopyBinaryWriter {
  private buf = Buffer.allocUnsafe(1 << 20)
  private at = 0

  constructor() {
    this.raw(HEADER)
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n))
    this.buf.copy(next, 0, 0, this.at)
    this.buf = next
  }

  private raw(bytes: Uint8Array): void {
    this.room(bytes.length)
    this.buf.set(bytes, this.at)
    this.at += bytes.length
  }

  /** Starts a row of `fields` fields. */
  row(fields: number): void {
    this.room(2)
    this.at = this.buf.writeInt16BE(fields, this.at)
  }

  null(): void {
    this.room(4)
    this.at = this.buf.writeInt32BE(-1, this.at)
  }

  int4(v: number): void {
    this.room(8)
    this.at = this.buf.writeInt32BE(4, this.at)
    this.at = this.buf.writeInt32BE(v, this.at)
  }

  /** A float8, or NULL for NaN (a record without geometry has no bbox). */
  float8(v: number): void {
    if (Number.isNaN(v)) return this.null()
    this.room(12)
    this.at = this.buf.writeInt32BE(8, this.at)
    this.at = this.buf.writeDoubleBE(v, this.at)
  }

  bytes(v: Uint8Array | null): void {
    if (v === null) return this.null()
    this.room(4 + v.length)
    this.at = this.buf.writeInt32BE(v.length, this.at)
    this.buf.set(v, this.at)
    this.at += v.length
  }

  /** UTF-8 text; NUL characters, which PostgreSQL text cannot hold, are dropped. */
  text(v: string | null): void {
    if (v === null) return this.null()
    const s = v.includes('\0') ? v.replace(/\0/g, '') : v
    const n = Buffer.byteLength(s)
    this.room(4 + n)
    this.at = this.buf.writeInt32BE(n, this.at)
    this.at += this.buf.write(s, this.at)
  }

  /** The trailer that ends the stream. */
  end(): void {
    this.room(2)
    this.at = this.buf.writeInt16BE(-1, this.at)
  }

  /** Bytes written since the last take. */
  get size(): number {
    return this.at
  }

  take(): Buffer {
    const out = Buffer.from(this.buf.subarray(0, this.at))
    this.at = 0
    return out
  }
}
