import { describe, expect, it } from 'vitest'
import { layersOfDataset } from './useShowDatasetLayers'

describe('layersOfDataset', () => {
  it('finds the sidebar layers drawing a dataset', () => {
    expect(layersOfDataset('public_safety_power_shutoff')).toContain('psps')
    expect(layersOfDataset('enhanced_powerline_safety_settings')).toContain('epss')
    expect(layersOfDataset('public_safety_power_shutoff')).not.toContain('epss')
    expect(layersOfDataset('no_such_dataset')).toEqual([])
  })
})
