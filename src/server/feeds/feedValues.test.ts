import { describe, expect, it } from 'vitest'
import { parseFeedTime } from './feedTime'
import { mapField } from './mapField'
import { readPath } from './readPath'
import { convertUnit, unitOf } from './units'

describe('parseFeedTime (every result is UTC)', () => {
  it('reads FIRMS acq_date + acq_time HHMM, padded or not', () => {
    expect(parseFeedTime('dateHhmm', ['2025-10-29', '0735'])).toBe('2025-10-29T07:35:00.000Z')
    expect(parseFeedTime('dateHhmm', ['2025-10-29', '230'])).toBe('2025-10-29T02:30:00.000Z')
    expect(parseFeedTime('dateHhmm', ['2025-10-29', 5])).toBe('2025-10-29T00:05:00.000Z')
    expect(() => parseFeedTime('dateHhmm', ['2025-10-29', '2575'])).toThrow(/HHMM/)
    expect(() => parseFeedTime('dateHhmm', ['29/10/2025', '0735'])).toThrow(/YYYY-MM-DD/)
  })
  it('reads ISO times with a local offset, epoch ms, HMS day-of-year and MesoWest times', () => {
    expect(parseFeedTime('iso', ['2024-07-18T12:47:00-07:00'])).toBe('2024-07-18T19:47:00.000Z')
    expect(parseFeedTime('iso', ['2026-01-23T15:00:00Z'])).toBe('2026-01-23T15:00:00.000Z')
    expect(parseFeedTime('epochMs', [1777839300000])).toBe('2026-05-03T20:15:00.000Z')
    expect(parseFeedTime('yearDayHhmm', ['2026279 1700'])).toBe('2026-10-06T17:00:00.000Z')
    expect(parseFeedTime('usDateTimeUtc', ['04/10/2023 08:50 UTC'])).toBe('2023-04-10T08:50:00.000Z')
    expect(() => parseFeedTime('iso', ['yesterday'])).toThrow(/ISO 8601/)
    expect(() => parseFeedTime('yearDayHhmm', ['2026400 1700'])).toThrow(/day of year/)
  })
})

describe('units', () => {
  it('converts temperatures, speeds and lengths, and names units as feeds spell them', () => {
    expect(convertUnit(300, 'kelvin', 'celsius')).toBeCloseTo(26.85, 6)
    expect(convertUnit(-10, 'celsius', 'fahrenheit')).toBe(14)
    expect(convertUnit(10, 'm/s', 'mph')).toBeCloseTo(22.369363, 5)
    expect(convertUnit(25.4, 'mm', 'in')).toBe(1)
    expect(() => convertUnit(1, 'mm', 'mph')).toThrow(/cannot convert/)
    expect(unitOf('Celsius')).toBe('celsius')
    expect(unitOf('Miles/hour')).toBe('mph')
    expect(unitOf('Inches')).toBe('in')
    expect(unitOf('gm')).toBeUndefined()
  })
})

describe('mapField', () => {
  const props = {
    satellite: 'N',
    confidence: '59',
    frp: '0.72',
    bright_ti4: '299.24',
    d: '2025-10-29',
    t: '0735',
    blank: ' ',
    n: -999999,
  }
  it('renames, looks values up, bands numbers and converts units', () => {
    expect(mapField('s', 'string', { from: 'satellite', lookup: { N: 'Suomi NPP' } }, props, undefined)).toBe(
      'Suomi NPP',
    )
    const ranges = [{ below: 30, value: 'low' }, { below: 80, value: 'nominal' }, { value: 'high' }]
    expect(mapField('c', 'string', { from: 'confidence', ranges }, props, undefined)).toBe('nominal')
    expect(
      mapField(
        't',
        'number',
        { from: 'bright_ti4', convert: { from: 'kelvin', to: 'celsius' } },
        props,
        undefined,
      ),
    ).toBeCloseTo(26.09, 6)
    expect(mapField('a', 'date', { from: ['d', 't'], time: 'dateHhmm' }, props, undefined)).toBe(
      '2025-10-29T07:35:00.000Z',
    )
  })
  it('uses the units the feed declares when `convert.from` is omitted', () => {
    expect(
      mapField('w', 'number', { from: 'w', convert: { to: 'mph' } }, { w: 10 }, { w: 'm/s' }),
    ).toBeCloseTo(22.369363, 5)
    expect(() => mapField('w', 'number', { from: 'w', convert: { to: 'mph' } }, { w: 10 }, {})).toThrow(
      /declares no unit/,
    )
  })
  it('rejects unknown enum values unless a default is set; nullValues mean missing; required rejects', () => {
    expect(() =>
      mapField('s', 'string', { from: 'satellite', lookup: { T: 'Terra' } }, props, undefined),
    ).toThrow(/unknown value "N"/)
    expect(
      mapField(
        's',
        'string',
        { from: 'satellite', lookup: { T: 'Terra' }, default: 'other' },
        props,
        undefined,
      ),
    ).toBe('other')
    expect(mapField('b', 'string', { from: 'blank', nullValues: [' '] }, props, undefined)).toBeNull()
    expect(mapField('n', 'number', { from: 'n', nullValues: [-999999] }, props, undefined)).toBeNull()
    expect(() => mapField('x', 'string', { from: 'missing', required: true }, props, undefined)).toThrow(
      /missing missing/,
    )
    expect(mapField('x', 'string', { from: 'missing', orFrom: 'satellite' }, props, undefined)).toBe('N')
    expect(() => mapField('f', 'number', { from: 'satellite' }, props, undefined)).toThrow(/not a number/)
  })
  it('extracts with a regular expression (HMS description)', () => {
    const description =
      '<div>Start Time: 2026279 1700UTC<br>End Time: 2026279 2000UTC<br>Density: Medium<br>Satellite: GOES-EAST</div>'
    expect(
      mapField(
        'd',
        'number',
        { from: 'description', match: 'Density: *(\\w+)', lookup: { Light: 1, Medium: 2, Heavy: 3 } },
        { description },
        undefined,
      ),
    ).toBe(2)
    expect(
      mapField(
        'e',
        'date',
        { from: 'description', match: 'End Time: *(\\d{7} \\d{4})', time: 'yearDayHhmm' },
        { description },
        undefined,
      ),
    ).toBe('2026-10-06T20:00:00.000Z')
  })
  it('reads exact names, dotted paths and lists', () => {
    expect(readPath({ 'ELEVATION [ft]': '2598' }, 'ELEVATION [ft]')).toBe('2598')
    expect(readPath({ geocode: { UGC: ['NMZ101', 'NMZ105'] } }, 'geocode.UGC')).toBe('NMZ101; NMZ105')
    expect(readPath({ parameters: { NWSheadline: ['X'] } }, 'parameters.NWSheadline')).toBe('X')
  })
})
