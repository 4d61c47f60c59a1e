import { Callout, Spinner } from '@blueprintjs/core'
import { LegendView, type LayerUiState } from '../layers'
import type { BriefingSources, FeedFreshness } from './briefingApi'
import { layerLegends, layerSources, visibleLayers } from './briefingLayers'
import { layerTimes } from './layerTimes'
import type { Loaded } from './useBriefingData'

interface Props {
  readonly state: LayerUiState
  readonly sources: Loaded<BriefingSources>
  readonly feeds: ReadonlyMap<string, FeedFreshness>
  readonly hour: number | null
}

/** Every visible layer: its name and chosen sub-layer, legends, valid time and data freshness. */
export function LayersSection({ state, sources, feeds, hour }: Props) {
  const layers = visibleLayers(state)
  return (
    <section className="el-briefing-section el-briefing-layers" aria-labelledby="briefing-layers">
      <h2 id="briefing-layers">Layers</h2>
      {layers.length === 0 ? <p>No layer is shown on the map.</p> : null}
      {sources.state === 'loading' ? <Spinner size={20} aria-label="Loading the data times" /> : null}
      {sources.state === 'failed' ? (
        <Callout intent="warning">Data times unavailable: {sources.message}</Callout>
      ) : null}
      {layers.map((layer) => {
        const sub = layer.subLayers?.find((s) => s.id === state.selectedSubLayer[layer.id])
        const times =
          sources.state === 'ready' ? layerTimes(layerSources(layer, state), sources.value, feeds, hour) : []
        return (
          <div key={layer.id} className="el-briefing-layer" data-layer={layer.id}>
            <h3>
              {layer.name}
              {layer.subLayerControl === 'radio' && sub ? ` — ${sub.name}` : ''}
            </h3>
            <div className="el-briefing-legends">
              {layerLegends(layer, state).map((legend) => (
                <LegendView key={legend.id} legend={legend} />
              ))}
            </div>
            <dl className="el-briefing-times">
              {times.map((line, i) => (
                <div key={i} className={line.warning ? 'el-briefing-warning' : undefined}>
                  <dt>{line.label}</dt>
                  <dd>{line.text}</dd>
                </div>
              ))}
            </dl>
          </div>
        )
      })}
    </section>
  )
}
