import { Button } from '@blueprintjs/core'
import { useState } from 'react'
import { downloadCsv, fetchAllRecords, recordsToCsv } from './exportTableCsv'
import { appConfig, type TableDefinition } from '../../shared/config'
import type { TableFilter } from './tableFilter'
import { showTableError } from './tablesToaster'

/** Downloads every record matching the table's filters as <table id>.csv. */
export function ExportCsvButton({
  definition,
  filters,
}: {
  definition: TableDefinition
  filters: readonly TableFilter[]
}) {
  const [busy, setBusy] = useState(false)
  const exportCsv = async () => {
    setBusy(true)
    try {
      const records = await fetchAllRecords(definition, filters, appConfig.tables.maxLimit)
      downloadCsv(`${definition.id}.csv`, recordsToCsv(definition, records))
    } catch (error) {
      showTableError(`Could not export ${definition.name}: ${(error as Error).message}`)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button
      size="small"
      variant="minimal"
      icon="download"
      text="Export CSV"
      loading={busy}
      className="emberline-export-csv"
      onClick={() => void exportCsv()}
    />
  )
}
