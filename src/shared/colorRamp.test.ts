import { describe, expect, it } from 'vitest'
import { colorRamp, cssGradient, mixRgba, parseHexColor, type RampLegend } from './colorRamp'

const theme: Record<string, string> = { 'smoke.6': '#d9d9d9', 'windSpeed.10': '#66c2a5' }
const resolve = (name: string): string => theme[name] ?? name

const gradient: RampLegend & { type: 'gradient' } = {
  type: 'gradient',
  stops: [
    { value: 0, color: '#000000' },
    { value: 10, color: '#ff0000' },
    { value: 30, color: 'windSpeed.10' },
  ],
}

describe('parseHexColor', () => {
  it('reads short, opaque and translucent hex colours', () => {
    expect(parseHexColor('#fff')).toEqual([255, 255, 255, 255])
    expect(parseHexColor('#1a9850')).toEqual([26, 152, 80, 255])
    expect(parseHexColor('#00000000')).toEqual([0, 0, 0, 0])
  })
  it('rejects names that were not resolved', () => {
    expect(() => parseHexColor('smoke.6')).toThrow(/not a hex colour/)
  })
})

describe('gradient ramps', () => {
  const ramp = colorRamp(gradient, resolve)
  it('gives the stop colour exactly at each stop, theme names resolved', () => {
    expect(ramp.colorOf(0)).toEqual([0, 0, 0, 255])
    expect(ramp.colorOf(10)).toEqual([255, 0, 0, 255])
    expect(ramp.colorOf(30)).toEqual(parseHexColor('#66c2a5'))
  })
  it('interpolates linearly between stops', () => {
    expect(ramp.colorOf(5)).toEqual([128, 0, 0, 255])
    expect(ramp.colorOf(20)).toEqual([179, 97, 83, 255])
  })
  it('clamps outside the stops and draws nothing for NaN', () => {
    expect(ramp.colorOf(-4)).toEqual([0, 0, 0, 255])
    expect(ramp.colorOf(99)).toEqual(parseHexColor('#66c2a5'))
    expect(ramp.colorOf(Number.NaN)).toBeNull()
  })
  it('fades in from a transparent stop without darkening (premultiplied)', () => {
    const smoke = colorRamp(
      {
        type: 'gradient',
        stops: [
          { value: 0, color: '#00000000' },
          { value: 6, color: 'smoke.6' },
        ],
      },
      resolve,
    )
    expect(smoke.colorOf(0)).toEqual([0, 0, 0, 0])
    expect(smoke.colorOf(3)).toEqual([217, 217, 217, 128])
  })
})

describe('class ramps', () => {
  const ramp = colorRamp(
    {
      type: 'classes',
      classes: [
        { value: 11, label: 'Water', color: '#4a80b4' },
        { value: 21, label: 'Developed', color: '#9e9ac8' },
      ],
    },
    resolve,
  )
  it('gives each class its own colour and never a blend', () => {
    expect(ramp.colorOf(11)).toEqual(parseHexColor('#4a80b4'))
    expect(ramp.colorOf(21)).toEqual(parseHexColor('#9e9ac8'))
    expect(ramp.colorOf(16)).toBeNull()
  })
})

describe('other helpers', () => {
  it('mixes at the ends to the end colours', () => {
    expect(mixRgba([0, 0, 0, 255], [255, 255, 255, 255], 1)).toEqual([255, 255, 255, 255])
  })
  it('builds the CSS gradient the sidebar draws, evenly or by value', () => {
    expect(cssGradient(gradient, resolve)).toBe(
      'linear-gradient(to right, rgba(0, 0, 0, 1) 0%, rgba(255, 0, 0, 1) 50%, rgba(102, 194, 165, 1) 100%)',
    )
    expect(cssGradient(gradient, resolve, 'value')).toContain('rgba(255, 0, 0, 1) 33.33%')
  })
})

describe('paint', () => {
  it('writes the same bytes colorOf returns and nothing where nothing is drawn', () => {
    const ramps = [
      colorRamp(gradient, resolve),
      colorRamp(
        {
          type: 'gradient',
          stops: [
            { value: 0, color: '#00000000' },
            { value: 6, color: 'smoke.6' },
          ],
        },
        resolve,
      ),
      colorRamp({ type: 'classes', classes: [{ value: 11, label: 'Water', color: '#4a80b4' }] }, resolve),
    ]
    for (const ramp of ramps) {
      for (const v of [-1, 0, 0.5, 3, 5, 6, 10, 11, 12.5, 20, 29.9, 30, 40, Number.NaN]) {
        const out = new Uint8Array(4)
        const drawn = ramp.paint(v, out, 0)
        const c = ramp.colorOf(v)
        expect(drawn).toBe(c !== null && c[3] > 0)
        if (drawn) expect([...out]).toEqual([...c!])
      }
    }
  })
})
