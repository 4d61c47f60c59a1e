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

describe('parseFeedTime: auto reads every spelling the sources write', () => {
  const t = '2025-01-16T21:41:54.000Z'
  it('epoch seconds and milliseconds, as numbers or digits, told apart by magnitude (1e11)', () => {
    expect(parseFeedTime('auto', [1737063714])).toBe(t)
    expect(parseFeedTime('auto', [1737063714000])).toBe(t)
    expect(parseFeedTime('auto', ['1737063714'])).toBe(t)
    expect(parseFeedTime('auto', [' 1737063714000 '])).toBe(t)
    expect(parseFeedTime('auto', [1737063714.5])).toBe('2025-01-16T21:41:54.500Z')
    // Below 1e11 is seconds (1e11 s is the year 5138), from 1e11 on milliseconds (1973-03-03).
    expect(parseFeedTime('auto', [99_999_999_999])).toBe('5138-11-16T09:46:39.000Z')
    expect(parseFeedTime('auto', [100_000_000_000])).toBe('1973-03-03T09:46:40.000Z')
    expect(parseFeedTime('auto', [0])).toBe('1970-01-01T00:00:00.000Z')
    expect(parseFeedTime('auto', [-3_155_673_600_000])).toBe('1870-01-01T00:00:00.000Z')
  })
  it('ISO 8601 with a zone, an offset, or none (none is UTC)', () => {
    expect(parseFeedTime('auto', ['2025-01-16T21:41:54Z'])).toBe(t)
    expect(parseFeedTime('auto', ['2025-01-16T14:41:54-07:00'])).toBe(t)
    expect(parseFeedTime('auto', ['2025-01-16T22:41:54+0100'])).toBe(t)
    expect(parseFeedTime('auto', ['2025-01-17T02:41:54+05'])).toBe(t)
    expect(parseFeedTime('auto', ['2025-01-16T21:41:54'])).toBe(t)
    expect(parseFeedTime('auto', ['2025-01-16 21:41:54'])).toBe(t)
    expect(parseFeedTime('auto', ['2025-01-16T21:41'])).toBe('2025-01-16T21:41:00.000Z')
    expect(parseFeedTime('auto', ['2025-01-16T21:41:54.1234567Z'])).toBe('2025-01-16T21:41:54.123Z')
    expect(parseFeedTime('auto', ['2025-01-16'])).toBe('2025-01-16T00:00:00.000Z')
  })
  it('RFC 1123, as the NIFC open-data Hub download writes it, and its RFC 822 zones', () => {
    expect(parseFeedTime('auto', ['Thu, 16 Jan 2025 21:41:54 GMT'])).toBe(t)
    expect(parseFeedTime('auto', ['16 Jan 2025 21:41:54 GMT'])).toBe(t)
    expect(parseFeedTime('auto', ['Thu, 16 Jan 2025 14:41:54 -0700'])).toBe(t)
    expect(parseFeedTime('auto', ['thu, 16 jan 2025 21:41:54 UTC'])).toBe(t)
    expect(parseFeedTime('auto', ['Sun, 3 May 2026 20:15 GMT'])).toBe('2026-05-03T20:15:00.000Z')
  })
  it('rejects what is not a time, naming the value', () => {
    const bad = (v: unknown, reason: RegExp) => expect(() => parseFeedTime('auto', [v])).toThrow(reason)
    bad('yesterday', /^'yesterday' is not a time \(epoch seconds or milliseconds, ISO 8601 or RFC 1123\)$/)
    bad('2025-02-30T00:00:00Z', /'2025-02-30T00:00:00Z' is not a valid ISO 8601 time/)
    bad('2025-01-16T24:00:00Z', /not a valid ISO 8601 time/)
    bad('2025-01-16T21:41:54+25:00', /not a valid ISO 8601 time/)
    bad('2025-13-01', /not a valid ISO 8601 time/)
    bad('2025-1-16', /is not an ISO 8601 time/)
    bad('Tue, 31 Feb 2026 20:28:36 GMT', /is not a valid RFC 1123 time/)
    bad('Wed, 16 Jan 2025 21:41:54 GMT', /16 Jan 2025 is not a Wed/)
    bad('Thu, 16 Foo 2025 21:41:54 GMT', /is not an RFC 1123 time/)
    bad('Thu, 16 Jan 2025 21:41:54 PST', /not a time/)
    bad('1e12', /not a time/)
    bad('0x10', /not a time/)
    bad(Number.POSITIVE_INFINITY, /is not an epoch time in seconds or milliseconds/)
    bad(Number.NaN, /is not an epoch time/)
    bad(1e300, /out of the range of dates/)
    bad('99999999999999999999', /out of the range of dates/)
    bad(true, /true is not a time/)
    bad({ ms: 1 }, /is not a time/)
  })
})

describe('parseFeedTime: a named format reads only its own spelling', () => {
  it('epochSeconds and epochMs decide what a number means', () => {
    expect(parseFeedTime('epochSeconds', [1737063714])).toBe('2025-01-16T21:41:54.000Z')
    expect(parseFeedTime('epochSeconds', ['86400'])).toBe('1970-01-02T00:00:00.000Z')
    expect(parseFeedTime('epochMs', [86_400_000])).toBe('1970-01-02T00:00:00.000Z')
    // A 1970 date in milliseconds, which auto would read as seconds.
    expect(parseFeedTime('epochMs', [1_000_000])).toBe('1970-01-01T00:16:40.000Z')
    expect(parseFeedTime('auto', [1_000_000])).toBe('1970-01-12T13:46:40.000Z')
    expect(() => parseFeedTime('epochMs', ['Thu, 16 Jan 2025 21:41:54 GMT'])).toThrow(
      /is not an epoch time in milliseconds/,
    )
    expect(() => parseFeedTime('epochSeconds', ['2025-01-16'])).toThrow(/is not an epoch time in seconds/)
    expect(() => parseFeedTime('epochMs', [''])).toThrow(/is not an epoch time/)
  })
  it('iso and rfc1123 read their own spelling and nothing else', () => {
    expect(parseFeedTime('iso', ['2025-01-16T21:41:54'])).toBe('2025-01-16T21:41:54.000Z')
    expect(() => parseFeedTime('iso', ['Thu, 16 Jan 2025 21:41:54 GMT'])).toThrow(/is not an ISO 8601 time/)
    expect(() => parseFeedTime('iso', [1737063714000])).toThrow(/is not an ISO 8601 time/)
    expect(parseFeedTime('rfc1123', ['Thu, 16 Jan 2025 21:41:54 GMT'])).toBe('2025-01-16T21:41:54.000Z')
    expect(() => parseFeedTime('rfc1123', ['2025-01-16T21:41:54Z'])).toThrow(/is not an RFC 1123 time/)
  })
})

describe('mapField: a date field reads every spelling unless the mapping names a format', () => {
  const props = { hub: 'Thu, 16 Jan 2025 21:41:54 GMT', ms: 1737063714000, s: 1737063714 }
  it('a date field without `time` is read as auto and stored as ISO 8601 UTC', () => {
    for (const from of ['hub', 'ms', 's'])
      expect(mapField('d', 'date', { from }, props, undefined)).toBe('2025-01-16T21:41:54.000Z')
    expect(() => mapField('d', 'date', { from: 'hub', time: 'epochMs' }, props, undefined)).toThrow(
      /^hub: 'Thu, 16 Jan 2025 21:41:54 GMT' is not an epoch time in milliseconds$/,
    )
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
