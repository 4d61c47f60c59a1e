import { H2, HTMLTable, Tag } from '@blueprintjs/core'
import { layersConfig, sourceById } from '../../shared/config'
import { layerSourceIds, useHiddenLayerIds, useSourceStatus, type SourceStatus } from '../layers'

const OWN = new Set(['mvt', 'png', 'wind'])
const STATE = { ok: 'Available', unavailable: 'Unavailable', unknown: 'Not asked yet' } as const
const INTENT = { ok: 'success', unavailable: 'danger', unknown: 'none' } as const

/**
 * The layers drawn from other servers: each source's kind and host (never its path or credentials)
 * and its current state from /api/sources/status, with the reason when it is unavailable. Layers of
 * a source switched off on the server (a `${NAME}` of its url unset) are left out.
 */
export function ExternalSourcesDoc() {
  const statuses = useSourceStatus()
  const hidden = useHiddenLayerIds()
  const byId = new Map<string, SourceStatus>(statuses.map((s) => [s.id, s]))
  // A layer whose source is switched off on the server (its `${NAME}` url unset) is not listed.
  const rows = layersConfig.layers
    .filter((layer) => !hidden.has(layer.id))
    .flatMap((layer) =>
      layerSourceIds(layer)
        .filter((id) => !OWN.has(sourceById(id).type))
        .map((id) => ({ layer, source: sourceById(id), status: byId.get(id) })),
    )
  return (
    <section id="external-sources" data-testid="external-sources">
      <H2>Layers from other servers</H2>
      {rows.length === 0 ? (
        <p>No layer of this catalogue is drawn from another server.</p>
      ) : (
        <HTMLTable compact>
          <thead>
            <tr>
              <th>Layer</th>
              <th>Source</th>
              <th>Kind</th>
              <th>Host</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ layer, source, status }) => {
              const state = status?.state ?? 'unknown'
              return (
                <tr key={`${layer.id}/${source.id}`} data-source={source.id}>
                  <td>{layer.name}</td>
                  <td>{source.id}</td>
                  <td>{source.type}</td>
                  <td>{status ? (status.host ?? 'file on the server') : '—'}</td>
                  <td>
                    <Tag minimal intent={INTENT[state]}>
                      {STATE[state]}
                    </Tag>
                    {status?.message ? <span> {status.message}</span> : null}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </HTMLTable>
      )}
    </section>
  )
}
