import { useEffect, useState } from 'react'
import { mapLayerById, sourceById, type LayerDefinition } from '../../shared/config'
import { authFetch } from '../session'

/** Raster source kinds whose server draws its own legend (`/api/sources/<id>/legend`). */
const LEGEND_KINDS = new Set(['wms', 'arcgis-mapserver'])

/** One entry of an ArcGIS legend as our server answers it (label and a data: URL swatch). */
interface LegendEntry {
  readonly layer?: string
  readonly label: string
  readonly image: string
}

/**
 * The map layers of a sidebar layer whose legend comes from another server: raster layers of a
 * WMS or ArcGIS MapServer source with no `legend` in the YAML. Each source once.
 */
export function serverLegendSources(layer: LayerDefinition): { id: string; type: string }[] {
  const out = new Map<string, string>()
  for (const id of layer.layers) {
    const mapLayer = mapLayerById(id)
    if (mapLayer.legend || mapLayer.paint.type !== 'raster') continue
    const source = sourceById(mapLayer.source)
    if (LEGEND_KINDS.has(source.type)) out.set(source.id, source.type)
  }
  return [...out].map(([id, type]) => ({ id, type }))
}

/**
 * The legend another server draws: a WMS GetLegendGraphic image as it is, or an ArcGIS legend's
 * entries (swatch and label). Both through our proxy; nothing shown when the server has none.
 */
export function SourceLegend({ sourceId, type, name }: { sourceId: string; type: string; name: string }) {
  const url = `/api/sources/${encodeURIComponent(sourceId)}/legend`
  const [entries, setEntries] = useState<readonly LegendEntry[] | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    if (type === 'wms') return
    let live = true
    authFetch(url)
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status))
        const body = (await res.json()) as { entries?: LegendEntry[] }
        if (live) setEntries(body.entries ?? [])
      })
      .catch(() => {
        if (live) setFailed(true)
      })
    return () => {
      live = false
    }
  }, [url, type])
  if (failed) return null
  if (type === 'wms')
    return (
      <div className="el-legend el-legend-server" data-source-legend={sourceId}>
        <img src={url} alt={`Legend of ${name} from its server`} onError={() => setFailed(true)} />
      </div>
    )
  if (!entries || entries.length === 0) return null
  return (
    <div className="el-legend el-legend-server" data-source-legend={sourceId}>
      <ul className="el-legend-list">
        {entries.map((e, i) => (
          <li key={`${e.layer ?? ''}-${e.label}-${i}`}>
            <img src={e.image} alt="" width={20} height={20} />
            <span>{e.label}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}
