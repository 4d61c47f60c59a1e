import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// PDF checks with Debian's poppler-utils (pdfinfo, pdftotext, pdftoppm).

export function pdfPageCount(file: string): number {
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' })
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0)
}

/** The text of one page (or all), laid out as on the page (`-layout`). */
export function pdfText(file: string, page?: number): string {
  const range = page === undefined ? [] : ['-f', String(page), '-l', String(page)]
  return execFileSync('pdftotext', ['-layout', ...range, file, '-'], { encoding: 'utf8' })
}

/** An RGB raster of one page. */
export interface Raster {
  width: number
  height: number
  /** RGB triplets, row by row. */
  data: Buffer
}

/** One page drawn by pdftoppm at `dpi` (binary PPM, read here). */
export function pdfPageRaster(file: string, page: number, dpi = 50): Raster {
  const dir = mkdtempSync(join(tmpdir(), 'emberline-pdf-'))
  try {
    execFileSync('pdftoppm', [
      '-r',
      String(dpi),
      '-f',
      String(page),
      '-l',
      String(page),
      file,
      join(dir, 'p'),
    ])
    const name = readdirSync(dir).find((f) => f.endsWith('.ppm'))
    if (!name) throw new Error('pdftoppm wrote no page')
    const bytes = readFileSync(join(dir, name))
    // Header: "P6" width height maxval, each followed by one whitespace byte.
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 64).toString('latin1'))
    if (!header) throw new Error('not a binary PPM')
    return {
      width: Number(header[1]),
      height: Number(header[2]),
      data: bytes.subarray(header[0].length),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const pixel = (r: Raster, x: number, y: number): number => {
  const i = (y * r.width + x) * 3
  return ((r.data[i] ?? 0) << 16) | ((r.data[i + 1] ?? 0) << 8) | (r.data[i + 2] ?? 0)
}
const isPaper = (rgb: number) => rgb >> 16 > 240 && ((rgb >> 8) & 255) > 240 && (rgb & 255) > 240

/**
 * The first block of rows from the top that are mostly ink (not paper): a picture's box on the
 * page, [x0, y0, x1, y1] in pixels, or null.
 */
export function firstPictureBox(r: Raster, minShare = 0.5): [number, number, number, number] | null {
  const inkShare = (y: number) => {
    let ink = 0
    for (let x = 0; x < r.width; x++) if (!isPaper(pixel(r, x, y))) ink++
    return ink / r.width
  }
  let top = -1
  let bottom = -1
  for (let y = 0; y < r.height; y++) {
    const full = inkShare(y) >= minShare
    if (full && top < 0) top = y
    if (!full && top >= 0) {
      bottom = y
      if (bottom - top > 20) break
      top = -1
    }
  }
  if (top < 0 || bottom < 0) return null
  const middle = Math.floor((top + bottom) / 2)
  let left = 0
  while (left < r.width && isPaper(pixel(r, left, middle))) left++
  let right = r.width - 1
  while (right > left && isPaper(pixel(r, right, middle))) right--
  return [left, top, right, bottom]
}

/** Colours sampled on an n × n grid inside a box (shrunk by 5 % on each side). */
export function sampleColours(r: Raster, box: [number, number, number, number], n = 16): number[] {
  const [x0, y0, x1, y1] = box
  const dx = (x1 - x0) * 0.05
  const dy = (y1 - y0) * 0.05
  const out: number[] = []
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      out.push(
        pixel(
          r,
          Math.round(x0 + dx + ((x1 - x0 - 2 * dx) * i) / (n - 1)),
          Math.round(y0 + dy + ((y1 - y0 - 2 * dy) * j) / (n - 1)),
        ),
      )
  return out
}

/**
 * Lines that continue a table row at the top of a page: on every page where the table's header
 * row (`header` matches it) is printed, the first line under it must start a row (`rowStart`);
 * anything else is the rest of a row begun on the page before. Answers "page N: line" for each.
 */
export function splitRows(pages: readonly string[], header: RegExp, rowStart: RegExp): string[] {
  const found: string[] = []
  pages.forEach((text, i) => {
    const lines = text.split('\n')
    const at = lines.findIndex((l) => header.test(l))
    if (at < 0) return
    const next = lines.slice(at + 1).find((l) => l.trim() !== '')
    if (next !== undefined && !rowStart.test(next)) found.push(`page ${i + 1}: ${next.trim()}`)
  })
  return found
}
