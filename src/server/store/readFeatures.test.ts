import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readGeojson } from './readFeatures'

const dir = mkdtempSync(path.join(os.tmpdir(), 'read-features-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function write(name: string, text: string): string {
  const file = path.join(dir, name)
  writeFileSync(file, text)
  return file
}

const point = (i: number, pretty: boolean) =>
  JSON.stringify(
    { type: 'Feature', properties: { n: i }, geometry: { type: 'Point', coordinates: [i, i] } },
    null,
    pretty ? 2 : undefined,
  )

describe('readGeojson', () => {
  it('gives each feature of a FeatureCollection the line it starts on, however the file is laid out', () => {
    // One feature a line after a three-line header, then pretty-printed features of 13 lines each.
    const compact = Array.from({ length: 5 }, (_, i) => point(i, false))
    const pretty = Array.from({ length: 3 }, (_, i) => point(5 + i, true))
    const text = `{\n"type": "FeatureCollection",\n"features": [\n${[...compact, ...pretty].join(',\n')}\n]}\n`
    const lines = [...readGeojson(write('fc.geojson', text))].map((f) => f.line)
    // The line of each feature's "Feature" type, counted from the start of the text.
    const expected: number[] = []
    for (let at = text.indexOf('"Feature"'); at >= 0; at = text.indexOf('"Feature"', at + 1))
      expected.push(text.slice(0, at).split('\n').length)
    expect(lines).toEqual(expected)
    expect(lines).toEqual([4, 5, 6, 7, 8, 10, 23, 36])
  })

  it('names the line of a feature that is not one', () => {
    const text = `{"type": "FeatureCollection", "features": [\n${point(0, false)},\n{"type": "Feature", "properties": 3, "geometry": null}\n]}`
    expect(() => [...readGeojson(write('bad.geojson', text))]).toThrow(
      expect.objectContaining({ line: 3, message: expect.stringMatching(/properties must be an object/) }),
    )
  })
})
