import { H3, Tag } from '@blueprintjs/core'
import { LegendView } from '../layers'
import type { DocLayer } from './buildDocumentation'
import { FieldTable } from './FieldTable'

/** One layer's entry on the documentation page. */
export function LayerDoc({ layer }: { layer: DocLayer }) {
  return (
    <article className="emberline-docs-layer" id={`layer-${layer.id}`} data-layer-id={layer.id}>
      <H3>
        {layer.name}
        {layer.inDefaultList ? null : (
          <Tag minimal className="emberline-docs-tag">
            not in the default list
          </Tag>
        )}
      </H3>
      <p>{layer.infoText}</p>
      <dl>
        <dt>Data source</dt>
        <dd>{layer.dataSource}</dd>
        {layer.cadence.length > 0 ? (
          <>
            <dt>Cadence</dt>
            {layer.cadence.map((c) => (
              <dd key={c}>{c}</dd>
            ))}
          </>
        ) : null}
        {layer.subLayers.length > 0 ? (
          <>
            <dt>Sub-layers</dt>
            <dd>{layer.subLayers.join(', ')}</dd>
          </>
        ) : null}
      </dl>
      {layer.legends.length > 0 ? (
        <div className="emberline-docs-legends" aria-label={`${layer.name} legends`}>
          {layer.legends.map((legend) => (
            <LegendView key={legend.id} legend={legend} />
          ))}
        </div>
      ) : null}
      {layer.popupFields.length > 0 ? <FieldTable caption="Popup fields" fields={layer.popupFields} /> : null}
      {layer.table ? (
        <FieldTable caption={`Table '${layer.table.name}' columns`} fields={layer.table.columns} />
      ) : null}
    </article>
  )
}
