import { useSyncExternalStore } from 'react'
import type { LayerDefinition } from '../../shared/config'
import { authFetch } from '../session'
import { gridsOfLayer, provenanceText, type GridProvenance } from './gridProvenance'

const REFRESH_MS = 60_000
let grids: readonly GridProvenance[] = []
let loadedAt = 0
let loading = false
const listeners = new Set<() => void>()

/** GET /api/grids, at most once a minute while a legend shows it; a failure keeps the last answer. */
function refresh(): void {
  if (loading || Date.now() - loadedAt < REFRESH_MS) return
  loading = true
  authFetch('/api/grids')
    .then(async (res) => {
      if (!res.ok) return
      grids = ((await res.json()) as { grids?: GridProvenance[] }).grids ?? []
      loadedAt = Date.now()
      for (const l of listeners) l()
    })
    .catch(() => undefined)
    .finally(() => {
      loading = false
    })
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  refresh()
  return () => listeners.delete(listener)
}

/** Source, model run and valid times of the grids a layer draws, under its legends (imported grids only). */
export function GridProvenanceNote({ layer }: { layer: LayerDefinition }) {
  const all = useSyncExternalStore(
    subscribe,
    () => grids,
    () => grids,
  )
  const ids = gridsOfLayer(layer)
  const lines = all.flatMap((g) => {
    if (!ids.includes(g.id)) return []
    const text = provenanceText(g)
    return text ? [{ id: g.id, title: g.title, text }] : []
  })
  if (lines.length === 0) return null
  return (
    <div className="el-grid-provenance bp6-text-muted">
      {lines.map((l) => (
        <p key={l.id} data-grid-provenance={l.id}>
          {ids.length > 1 ? `${l.title}: ` : 'Data: '}
          {l.text}
        </p>
      ))}
    </div>
  )
}
