import { Button, Menu, MenuItem, PopoverNext } from '@blueprintjs/core'
import { useState } from 'react'
import { downloadGisFile, type GisFormat } from './exportGisFile'
import type { TableDefinition } from '../../shared/config'
import type { TableFilter } from './tableFilter'
import { showTableError } from './tablesToaster'

const FORMATS: { format: GisFormat; text: string }[] = [
  { format: 'geojson', text: 'GeoJSON (.geojson)' },
  { format: 'gpkg', text: 'GeoPackage (.gpkg)' },
]

/** Exports the rows matching the table's filters, with geometry, as GeoJSON or GeoPackage. */
export function ExportGisMenu({
  definition,
  dataset,
  filters,
}: {
  definition: TableDefinition
  /** The table's dataset (tables over another server's features have none and no menu). */
  dataset: string
  filters: readonly TableFilter[]
}) {
  const [busy, setBusy] = useState(false)
  const run = async (format: GisFormat) => {
    setBusy(true)
    try {
      await downloadGisFile(dataset, definition.id, filters, format)
    } catch (error) {
      showTableError(`Could not export ${definition.name}: ${(error as Error).message}`)
    } finally {
      setBusy(false)
    }
  }
  return (
    <PopoverNext
      placement="bottom-end"
      content={
        <Menu aria-label="Export with geometry">
          {FORMATS.map((f) => (
            <MenuItem
              key={f.format}
              text={f.text}
              className={`emberline-export-${f.format}`}
              onClick={() => void run(f.format)}
            />
          ))}
        </Menu>
      }
    >
      <Button
        size="small"
        variant="minimal"
        icon="globe"
        endIcon="caret-down"
        text="Export GIS"
        loading={busy}
        className="emberline-export-gis"
      />
    </PopoverNext>
  )
}
