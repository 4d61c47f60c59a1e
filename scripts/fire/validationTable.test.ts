import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { differencePercent, renderValidationTable, validationRows } from './validationTable'

describe('docs/fire.md validation table', () => {
  const rows = validationRows()

  it('every published figure is matched within 0.5 %', () => {
    const off = rows
      .filter((r) => Math.abs(differencePercent(r)) > 0.5)
      .map((r) => `${r.case}: ${r.quantity}`)
    expect(off).toEqual([])
  })

  it('the page holds the table the code computes now (regenerate with `npm run -s fire -- validate`)', () => {
    const page = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/fire.md'), 'utf8')
    expect(page).toContain(renderValidationTable(rows))
  })
})
