import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import {
  appConfig,
  envGatedLayerIds,
  layersConfig,
  type LayersConfig,
  operationsConfig,
  tablesConfig,
} from '../../shared/config'
import { DocumentationScreen } from './DocumentationScreen'

describe('DocumentationScreen', () => {
  it('shows every configured layer with its info text', () => {
    const html = renderToStaticMarkup(<DocumentationScreen />)
    const gated = envGatedLayerIds()
    for (const layer of layersConfig.layers.filter((l) => !gated.has(l.id))) {
      expect(html).toContain(`data-layer-id="${layer.id}"`)
      expect(html).toContain(`>${layer.name}`)
    }
    // A layer of a source whose `${NAME}` url the server has not reported set is not documented.
    expect(gated.size).toBeGreaterThan(0)
    for (const id of gated) expect(html).not.toContain(`data-layer-id="${id}"`)
    expect(html).toContain('How to read PSPS')
    expect(html).toContain('Medium-High')
  })

  it('documents the operations views from config/operations.yaml', () => {
    const html = renderToStaticMarkup(<DocumentationScreen />)
    expect(html).toContain('Operations views')
    for (const rule of operationsConfig.alerts.rules) expect(html).toContain(`data-rule-id="${rule.id}"`)
  })

  it('explains the fire what-if tool, its share link and its limits', () => {
    const html = renderToStaticMarkup(<DocumentationScreen />)
    expect(html).toContain('id="fire-what-if"')
    expect(html).toContain('href="#fire-what-if"')
    expect(html).toContain('fireAt=lon,lat')
    expect(html).toContain('no spotting and no suppression')
  })

  it('shows a layer that exists only in the given config', () => {
    const base = layersConfig.layers.find((l) => l.id === 'red_flag_warnings')
    if (!base) throw new Error('fixture layer missing')
    const layers: LayersConfig = {
      ...layersConfig,
      layers: [
        ...layersConfig.layers,
        {
          ...base,
          id: 'lightning',
          name: 'Lightning Strikes',
          infoText: 'Cloud-to-ground strikes, last hour.',
        },
      ],
    }
    const html = renderToStaticMarkup(
      <DocumentationScreen sources={{ app: appConfig, layers, tables: tablesConfig }} />,
    )
    expect(html).toContain('data-layer-id="lightning"')
    expect(html).toContain('Lightning Strikes')
    expect(html).toContain('Cloud-to-ground strikes, last hour.')
  })
})
