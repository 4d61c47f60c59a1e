import { describe, expect, it } from 'vitest'
import { fireConfig, type FireConfig } from '../../../shared/config'
import { DEFAULT_FIRE_RUN_SETTINGS, fireRunSettingsFrom, fuelMoisture } from './fireRunSettings'

// config/fire.yaml as the server runs it (docs/fire.md "Consequence run: settings").

describe('the consequence run settings of config/fire.yaml', () => {
  it('the server runs config/fire.yaml: starts every 3 h, 8 of them, 500 m apart, 6-h fires, crown fire on', () => {
    const s = DEFAULT_FIRE_RUN_SETTINGS
    expect([s.everyHours, s.starts, s.spacingM, s.hours, s.batchSize, s.cellSizeM]).toEqual([
      3, 8, 500, 6, 200, 400,
    ])
    expect(s.lines.map((l) => l.dataset)).toEqual(['distribution_lines', 'transmission_lines'])
    expect(s.landscape).toMatchObject({
      fuelGrid: 'fuel_model',
      elevationGrid: 'elevation',
      canopyBaseHeightGrid: 'canopy_base_height',
      canopyBulkDensityGrid: 'canopy_bulk_density',
      foliarMoisturePercent: 100,
    })
    expect(s.outputs.scores.map((o) => [o.name, o.dataset, o.field, o.grid, o.hourly])).toEqual([
      ['psps', 'public_safety_power_shutoff', 'fire_risk_score', 'psps_score', true],
      ['epss', 'enhanced_powerline_safety_settings', 'epss_risk_score', 'epss_score', false],
    ])
  })

  it('maps Scott & Burgan moisture scenarios, or takes the five percents as written', () => {
    expect(fuelMoisture('D1L2')).toEqual({
      oneHourPercent: 3,
      tenHourPercent: 4,
      hundredHourPercent: 5,
      liveHerbPercent: 60,
      liveWoodyPercent: 90,
    })
    expect(fuelMoisture('D4L1')).toEqual({
      oneHourPercent: 12,
      tenHourPercent: 13,
      hundredHourPercent: 14,
      liveHerbPercent: 30,
      liveWoodyPercent: 60,
    })
    expect(fuelMoisture({ oneHour: 6, tenHour: 8, hundredHour: 10, liveHerb: 100, liveWoody: 130 })).toEqual({
      oneHourPercent: 6,
      tenHourPercent: 8,
      hundredHourPercent: 10,
      liveHerbPercent: 100,
      liveWoodyPercent: 130,
    })
  })

  it('crown off keeps the canopy as wind shelter only; no PSPS or EPSS output unless named', () => {
    const config: FireConfig = {
      ...fireConfig,
      landscape: { ...fireConfig.landscape, crown: { ...fireConfig.landscape.crown, enabled: false } },
      lines: [
        {
          dataset: 'distribution_lines',
          circuitField: 'identifier',
          overhead: { field: 'kind', values: ['OH'] },
        },
      ],
      outputs: { consequence: fireConfig.outputs.consequence },
    }
    const s = fireRunSettingsFrom(config, 2)
    expect(s.landscape.canopyCoverGrid).toBe('canopy_cover')
    expect(s.landscape.canopyBaseHeightGrid).toBeUndefined()
    expect(s.landscape.canopyBulkDensityGrid).toBeUndefined()
    expect(s.outputs.scores).toEqual([])
    expect(s.lines[0]!.overhead).toEqual({ field: 'kind', values: ['OH'] })
    expect(s.workers).toBe(2)
  })
})
