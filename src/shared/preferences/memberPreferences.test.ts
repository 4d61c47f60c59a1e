import { describe, expect, it } from 'vitest'
import { defaultPreferences, resolvePreferences, validatePreferencesPatch } from './memberPreferences'

const definitions = [
  {
    id: 'units',
    label: 'Units',
    default: 'mi',
    options: [
      { value: 'mi', label: 'Miles' },
      { value: 'km', label: 'Kilometres' },
    ],
  },
  {
    id: 'zone',
    label: 'Zone',
    default: 'local',
    options: [
      { value: 'local', label: 'Local' },
      { value: 'UTC', label: 'UTC' },
    ],
  },
]

describe('member preferences', () => {
  it('defaults every configured preference', () => {
    expect(defaultPreferences(definitions)).toEqual({ units: 'mi', zone: 'local' })
    expect(Object.keys(defaultPreferences())).toEqual(['timeZoneDisplay', 'distanceUnits'])
  })

  it('keeps stored values that are still allowed and defaults the rest', () => {
    expect(resolvePreferences({ units: 'km', zone: 'Mars/Olympus', gone: 'x' }, definitions)).toEqual({
      units: 'km',
      zone: 'local',
    })
    expect(resolvePreferences(null, definitions)).toEqual({ units: 'mi', zone: 'local' })
  })

  it('accepts a partial update of allowed values', () => {
    expect(validatePreferencesPatch({ zone: 'UTC' }, definitions)).toEqual({
      ok: true,
      patch: { zone: 'UTC' },
    })
    expect(validatePreferencesPatch({}, definitions)).toEqual({ ok: true, patch: {} })
  })

  it('names the bad parameter of a rejected update', () => {
    expect(validatePreferencesPatch({ units: 'furlongs' }, definitions)).toEqual({
      ok: false,
      parameter: 'units',
      message: 'units must be one of: mi, km',
    })
    expect(validatePreferencesPatch({ colour: 'red' }, definitions)).toMatchObject({
      ok: false,
      parameter: 'colour',
    })
    expect(validatePreferencesPatch({ units: 3 }, definitions)).toMatchObject({
      ok: false,
      parameter: 'units',
    })
    expect(validatePreferencesPatch(['units'], definitions)).toMatchObject({ ok: false, parameter: 'body' })
  })
})
