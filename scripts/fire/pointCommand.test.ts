import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { UsageError, parsePointArgs } from './pointCommand'

const root = path.resolve(import.meta.dirname, '../..')
const GR2 = [
  '--fuel-model',
  'gr2',
  '--moisture',
  '3,4,5,30,60',
  '--wind',
  '10',
  '--wind-height',
  '20ft',
  '--wind-from',
  '0',
]
const FLAT = ['--slope', '0', '--slope-units', 'percent', '--aspect', '0']

/** The real command line, as `npm run fire --` runs it. */
function fire(args: readonly string[]) {
  const tsx = path.join(root, 'node_modules/.bin/tsx')
  const run = spawnSync(tsx, ['scripts/fire.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

function usageError(args: readonly string[]): string {
  try {
    parsePointArgs(args)
  } catch (err) {
    if (err instanceof UsageError) return err.message
    throw err
  }
  throw new Error('expected a usage error')
}

describe('npm run fire -- point', { timeout: 60_000 }, () => {
  it('prints one JSON object with the BehavePlus 6 GR2 figures (46.15 ft/min, length-to-width 2.236)', () => {
    const run = fire(['point', ...GR2, ...FLAT, '--json'])
    expect(run.code).toBe(0)
    const out = JSON.parse(run.stdout) as Record<string, number>
    for (const key of [
      'ros_ch_h',
      'ros_ft_min',
      'backing_ros_ch_h',
      'flanking_ros_ch_h',
      'flame_length_ft',
      'fireline_intensity_btu_ft_s',
      'length_to_width',
      'max_spread_dir_deg',
      'midflame_wind_mph',
    ])
      expect(typeof out[key]).toBe('number')
    expect(Math.abs((out.ros_ft_min ?? 0) - 46.15) / 46.15).toBeLessThan(0.005)
    expect(Math.abs((out.length_to_width ?? 0) - 2.236) / 2.236).toBeLessThan(0.005)
    expect(out.ros_ch_h).toBeCloseTo((out.ros_ft_min ?? 0) / 1.1, 3)
    expect(out.max_spread_dir_deg).toBe(180) // wind from the north drives the fire south
  })

  it('takes slopes in degrees and a canopy; the wind from the south-west drives the fire north-east', () => {
    const args = [
      'point',
      '--fuel-model',
      '124',
      '--moisture',
      '6,7,8,60,90',
      '--wind',
      '5',
      '--wind-height',
      '20ft',
      '--wind-from',
      '225',
    ]
    const run = fire([
      ...args,
      '--slope',
      '0',
      '--slope-units',
      'degrees',
      '--aspect',
      '0',
      '--canopy-cover',
      '50',
      '--canopy-height',
      '30',
      '--crown-ratio',
      '0.5',
      '--json',
    ])
    expect(run.code).toBe(0)
    const out = JSON.parse(run.stdout) as Record<string, number | boolean>
    expect(out.max_spread_dir_deg).toBe(45)
    expect(out.sheltered).toBe(true)
  })

  it('bad input: a message naming the option on stderr, exit code 2, no stack trace', () => {
    const run = fire([
      'point',
      ...GR2.slice(0, 2),
      '--moisture',
      '3,4,5',
      '--wind',
      '10',
      '--wind-height',
      '20ft',
      '--wind-from',
      '0',
      ...FLAT,
    ])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/--moisture takes five values/)
    expect(run.stderr).not.toMatch(/\n\s+at /)
    expect(run.stdout).toBe('')
    const unknown = fire(['ignite'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/unknown command 'ignite'/)
  })
})

describe('point options', () => {
  it('names the option at fault', () => {
    expect(usageError([...GR2, '--slope', '0', '--slope-units', 'percent'])).toBe('--aspect is required')
    expect(usageError(['--fuel-model', 'xx9', ...GR2.slice(2), ...FLAT])).toMatch(
      /^--fuel-model 'xx9' is not a fuel model/,
    )
    expect(usageError([...GR2, '--slope', '0', '--slope-units', 'radians', '--aspect', '0'])).toMatch(
      /^--slope-units must be one of percent, degrees/,
    )
    expect(usageError([...GR2, '--slope', '95', '--slope-units', 'degrees', '--aspect', '0'])).toMatch(
      /^--slope must be a slope in degrees from 0 to 89/,
    )
    expect(usageError([...GR2.slice(0, 6), '--wind', 'fast', ...GR2.slice(6), ...FLAT])).toMatch(
      /^--wind must be a wind speed/,
    )
    expect(usageError([...GR2.slice(0, 6), '--wind-height', '10m', '--wind-from', '0', ...FLAT])).toMatch(
      /^--wind-height must be one of midflame, 20ft/,
    )
    expect(usageError([...GR2, ...FLAT.slice(0, 4), '--aspect', '400'])).toMatch(
      /^--aspect must be a direction in degrees from 0 to 360/,
    )
    expect(usageError([...GR2, ...FLAT, '--canopy-cover', '40'])).toBe(
      '--canopy-cover needs both --canopy-cover and --canopy-height',
    )
    expect(
      usageError([...GR2, ...FLAT, '--canopy-cover', '40', '--canopy-height', '30', '--crown-ratio', '2']),
    ).toMatch(/^--crown-ratio must be a fraction from 0 to 1/)
    expect(usageError([...GR2, ...FLAT, '--nope'])).toMatch(/Unknown option '--nope'/)
    expect(usageError(['--moisture', '3,4,5,30,abc', ...GR2.slice(0, 2), ...GR2.slice(4), ...FLAT])).toMatch(
      /^--moisture must be live woody moisture in %/,
    )
  })
})
