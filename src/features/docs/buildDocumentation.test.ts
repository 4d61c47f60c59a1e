import { describe, expect, it } from 'vitest'
import {
  appConfig,
  envGatedLayerIds,
  layersConfig,
  type LayersConfig,
  tablesConfig,
} from '../../shared/config'
import { buildDocumentation } from './buildDocumentation'

const docs = buildDocumentation()
const allLayers = docs.categories.flatMap((c) => c.layers)
const layer = (id: string) => allLayers.find((l) => l.id === id)

describe('buildDocumentation', () => {
  it('lists every configured category and every defined layer once', () => {
    expect(docs.categories.map((c) => c.name)).toEqual(layersConfig.categories.map((c) => c.name))
    expect(allLayers.map((l) => l.id).sort()).toEqual(layersConfig.layers.map((l) => l.id).sort())
    expect(layer('wind_vectors')?.inDefaultList).toBe(false)
  })

  it('gives each layer its info text, data source, cadence and legends', () => {
    const psps = layer('psps')
    expect(psps?.infoText).toBe(layersConfig.layers.find((l) => l.id === 'psps')?.infoText)
    expect(psps?.dataSource).toMatch(/PSPS forecast/)
    expect(psps?.cadence).toContain('PSPS forecast: Hourly for the next 18 hours.')
    expect(psps?.legends.map((l) => l.id)).toEqual(
      expect.arrayContaining(['psps_lines', 'psps_score', 'fire_consequence', 'wind_gusts']),
    )
    expect(psps?.subLayers).toEqual([
      'Hourly Fire Risk Score',
      'Fire Consequence Score',
      'Wildfire Potential Index',
      'Relative Humidity',
      'Wind Speed',
      'Wind Gusts',
    ])
  })

  it('explains popup fields and table columns', () => {
    const transmission = layer('transmission_lines')
    expect(transmission?.popupFields.map((f) => f.key)).toEqual([
      'circuit_length',
      'identifier',
      'nominal_voltage',
      'operating_voltage',
    ])
    expect(transmission?.popupFields[2]).toMatchObject({
      label: 'Nominal voltage (kV)',
      meaning: appConfig.documentation.fieldMeanings.nominal_voltage,
      format: '3 significant digits',
    })
    expect(transmission?.table).toBeNull()
    const fires = layer('active_fires')
    const table = tablesConfig.tables.find((t) => t.id === 'active_fires')
    expect(fires?.table?.name).toBe(table?.name)
    expect(fires?.table?.columns.map((c) => c.key)).toEqual(table?.columns.map((c) => c.key))
    expect(fires?.table?.columns.find((c) => c.key === 'estimated_cost_to_date')).toMatchObject({
      format: 'US dollars',
      type: 'number',
    })
  })

  it('gives every table column and popup field of the shipped config a meaning', () => {
    // Fields of another server's features (the utility's own servers) are that server's, not our datasets'.
    const gated = envGatedLayerIds()
    const missing = allLayers
      .filter((l) => !gated.has(l.id))
      .flatMap((l) => [...l.popupFields, ...(l.table?.columns ?? [])])
      .filter((f) => f.meaning === null)
      .map((f) => f.key)
    expect(missing).toEqual([])
  })

  it('states the risk label ranges', () => {
    expect(docs.riskLabels).toEqual([
      { label: 'High', range: '0.75 and above' },
      { label: 'Medium-High', range: '0.5 to below 0.75' },
      { label: 'Medium', range: '0.25 to below 0.5' },
      { label: 'Low', range: 'below 0.25' },
    ])
  })

  it('documents a layer added only in config, under its category', () => {
    const base = layersConfig.layers.find((l) => l.id === 'buildings')
    if (!base) throw new Error('fixture layer missing')
    const layers: LayersConfig = {
      ...layersConfig,
      layers: [
        ...layersConfig.layers,
        { ...base, id: 'substations', name: 'Substations', infoText: 'Grid substations.' },
      ],
    }
    const added = buildDocumentation({ app: appConfig, layers, tables: tablesConfig })
    const asset = added.categories.find((c) => c.id === 'asset_data')
    expect(asset?.layers.map((l) => l.name)).toContain('Substations')
    expect(asset?.layers.find((l) => l.id === 'substations')?.infoText).toBe('Grid substations.')
  })
})
