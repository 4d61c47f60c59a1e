import { Button, Card, Checkbox, Collapse, Slider, Switch } from '@blueprintjs/core'
import { appConfig, legendById, type LayerDefinition } from '../../shared/config'
import { FeedFreshnessBadge } from './FeedFreshnessBadge'
import { GridProvenanceNote } from './GridProvenanceNote'
import { SourceStatusBadge } from './SourceStatusBadge'
import { LegendView } from './LegendView'
import { baseLegends, subLayerLegend } from './layerLegends'
import { serverLegendSources, SourceLegend } from './SourceLegend'
import { useLayerState } from './LayerStateContext'
import { SubLayerRadios } from './SubLayerRadios'

const texts: Readonly<Record<string, string | undefined>> = appConfig.texts

function IntensitySlider(props: {
  label: string
  /** The handle's accessible name, e.g. 'Buildings intensity'. */
  name: string
  value: number
  onChange: (v: number) => void
  testId: string
}) {
  return (
    <div className="el-intensity" data-testid={props.testId}>
      <span className="el-intensity-label">{props.label}</span>
      <Slider
        min={0}
        max={100}
        stepSize={1}
        labelStepSize={50}
        value={props.value}
        onChange={props.onChange}
        handleHtmlProps={{ 'aria-label': props.name }}
      />
    </div>
  )
}

function SubLayerChecks({ layer }: { layer: LayerDefinition }) {
  const { state, dispatch } = useLayerState()
  const checked = state.checkedSubLayers[layer.id] ?? []
  return (
    <div className="el-sublayer-checks">
      {(layer.subLayers ?? [])
        .filter((s) => s.inControl !== false)
        .map((s) => (
          <Checkbox
            key={s.id}
            label={s.name}
            checked={checked.includes(s.id)}
            onChange={() => dispatch({ type: 'toggleCheckedSubLayer', layerId: layer.id, subLayerId: s.id })}
          />
        ))}
    </div>
  )
}

/** The body of an expanded layer: info, fixed panel texts, sub-layer controls, legends, sliders. */
function LayerBody({ layer }: { layer: LayerDefinition }) {
  const { state, dispatch } = useLayerState()
  const panel = layer.panel
  const control = layer.subLayerControl ?? 'none'
  const legends = baseLegends(layer).filter((l) => l.id !== panel?.lineLegend)
  const subLegends = control === 'none' ? (layer.subLayers ?? []).map((s) => subLayerLegend(layer, s.id)) : []
  return (
    <div className="el-layer-body">
      {layer.infoText ? <p className="el-layer-info bp6-text-muted">{layer.infoText}</p> : null}
      {(panel?.texts ?? []).map((key) => (
        <p key={key} className="el-panel-text" data-text={key}>
          {texts[key] ?? key}
        </p>
      ))}
      {control === 'radio' ? <SubLayerRadios layer={layer} /> : null}
      {control === 'checkbox' ? <SubLayerChecks layer={layer} /> : null}
      {panel?.lineLegend ? <LegendView legend={legendById(panel.lineLegend)} /> : null}
      {panel?.scoreBox ? (
        <Card className="el-score-box" data-testid={`${layer.id}-score-box`}>
          <div className="el-legend-title">{texts[panel.scoreBox] ?? panel.scoreBox}</div>
          {subLegends.map((l) => (l ? <LegendView key={l.id} legend={l} hideTitle /> : null))}
        </Card>
      ) : (
        subLegends.map((l) => (l ? <LegendView key={l.id} legend={l} /> : null))
      )}
      {legends.map((l) => (
        <LegendView key={l.id} legend={l} />
      ))}
      {serverLegendSources(layer).map((s) => (
        <SourceLegend key={s.id} sourceId={s.id} type={s.type} name={layer.name} />
      ))}
      <GridProvenanceNote layer={layer} />
      {layer.showLayerIntensity ? (
        <IntensitySlider
          label="Intensity"
          name={`${layer.name} intensity`}
          testId={`${layer.id}-intensity`}
          value={state.intensity[layer.id] ?? 100}
          onChange={(value) => dispatch({ type: 'setIntensity', layerId: layer.id, value })}
        />
      ) : null}
      {layer.showSubLayerIntensity ? (
        <IntensitySlider
          label="Sub-layer intensity"
          name={`${layer.name} sub-layer intensity`}
          testId={`${layer.id}-sublayer-intensity`}
          value={state.subLayerIntensity[layer.id] ?? 100}
          onChange={(value) => dispatch({ type: 'setSubLayerIntensity', layerId: layer.id, value })}
        />
      ) : null}
    </div>
  )
}

export interface LayerRowProps {
  readonly layer: LayerDefinition
  /** Opens the layer's attribute table; absent when there is no table feature on this screen. */
  readonly onOpenTable?: (tableId: string) => void
}

/** One layer in the sidebar: visibility switch, expand/collapse, table button and its body. */
export function LayerRow({ layer, onOpenTable }: LayerRowProps) {
  const { state, dispatch } = useLayerState()
  const open = state.open[layer.id] ?? false
  const table = layer.table
  return (
    <li className="el-layer-row" data-layer={layer.id}>
      <div className="el-layer-head">
        <Switch
          className="el-layer-switch"
          checked={state.visible[layer.id] ?? false}
          label={layer.name}
          aria-label={`Show ${layer.name}`}
          onChange={(e) =>
            dispatch({ type: 'setVisible', layerId: layer.id, visible: e.currentTarget.checked })
          }
        />
        <FeedFreshnessBadge layerId={layer.id} layerName={layer.name} />
        <SourceStatusBadge layer={layer} />
        {table && onOpenTable ? (
          <Button
            variant="minimal"
            size="small"
            icon="th"
            aria-label={`Open ${layer.name} table`}
            title="Attribute table"
            onClick={() => onOpenTable(table)}
          />
        ) : null}
        <Button
          variant="minimal"
          size="small"
          icon={open ? 'chevron-up' : 'chevron-down'}
          aria-label={`${open ? 'Collapse' : 'Expand'} ${layer.name}`}
          aria-expanded={open}
          onClick={() => dispatch({ type: 'toggleOpen', layerId: layer.id })}
        />
      </div>
      <Collapse isOpen={open} keepChildrenMounted={false}>
        <LayerBody layer={layer} />
      </Collapse>
    </li>
  )
}
