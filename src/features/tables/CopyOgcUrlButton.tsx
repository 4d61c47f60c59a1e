import { Button } from '@blueprintjs/core'
import { notify } from '../../shared/toastEvents'
import { ogcItemsUrl } from './ogcItemsUrl'
import type { TableDefinition } from '../../shared/config'
import type { TableFilter } from './tableFilter'
import { showTableError } from './tablesToaster'

/** Copies the OGC API – Features items URL of the table's current filters (for QGIS, GDAL, ArcGIS Pro). */
export function CopyOgcUrlButton({
  definition,
  dataset,
  filters,
}: {
  definition: TableDefinition
  /** The table's dataset (tables over another server's features have none and no button). */
  dataset: string
  filters: readonly TableFilter[]
}) {
  const url = ogcItemsUrl(window.location.origin, dataset, definition.id, filters)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url)
      notify('success', 'OGC API items URL copied')
    } catch {
      showTableError(`Could not copy; the URL is ${url}`)
    }
  }
  return (
    <Button
      size="small"
      variant="minimal"
      icon="link"
      text="Copy OGC URL"
      title={url}
      data-ogc-url={url}
      className="emberline-copy-ogc-url"
      onClick={() => void copy()}
    />
  )
}
