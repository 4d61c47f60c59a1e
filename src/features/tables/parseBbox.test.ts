import { describe, expect, it } from 'vitest'
import { parseBbox } from './parseBbox'

describe('parseBbox', () => {
  it('reads arrays, JSON strings and comma lists', () => {
    expect(parseBbox([-106.6, 35.0, -106.5, 35.1])).toEqual([-106.6, 35.0, -106.5, 35.1])
    expect(parseBbox('[-106.6,35,-106.5,35.1]')).toEqual([-106.6, 35, -106.5, 35.1])
    expect(parseBbox('-106.6, 35, -106.5, 35.1')).toEqual([-106.6, 35, -106.5, 35.1])
  })
  it('refuses missing, short or inverted boxes', () => {
    expect(parseBbox(null)).toBeNull()
    expect(parseBbox([1, 2, 3])).toBeNull()
    expect(parseBbox('[oops')).toBeNull()
    expect(parseBbox([-106.5, 35.1, -106.6, 35.0])).toBeNull()
    expect(parseBbox([0, -95, 1, 1])).toBeNull()
  })
})
