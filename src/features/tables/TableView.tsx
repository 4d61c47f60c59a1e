import { Callout, Classes, NonIdealState, Spinner } from '@blueprintjs/core'
import { AddFilterForm } from './AddFilterForm'
import { AttributeTablesActor } from './attributeTablesActor'
import { CopyOgcUrlButton } from './CopyOgcUrlButton'
import { ExportCsvButton } from './ExportCsvButton'
import { ExportGisMenu } from './ExportGisMenu'
import { FilterChips } from './FilterChips'
import { TableGrid } from './TableGrid'
import { TablePagination } from './TablePagination'

/** Blueprint's ids of a tab of the attribute-tables Tabs and of its panel (aria-controls names the panel). */
const tabPanelId = (tableId: string) => `${Classes.TAB_PANEL}_emberline-attribute-tables_${tableId}`
const tabTitleId = (tableId: string) => `${Classes.TAB}-title_emberline-attribute-tables_${tableId}`

/** The current table: its filters, pages, export, and the grid of the page's rows. */
export function TableView({ tableId, now }: { tableId: string; now?: () => number }) {
  const actor = AttributeTablesActor.useActorRef()
  const definition = AttributeTablesActor.useSelector((s) => s.context.definitions[tableId])
  const table = AttributeTablesActor.useSelector((s) => s.context.tables[tableId])
  const allFilters = AttributeTablesActor.useSelector((s) => s.context.filters)
  const itemsPerPage = AttributeTablesActor.useSelector((s) => s.context.itemsPerPage)
  if (!definition || !table) return null
  const filters = allFilters.filter((f) => f.tableId === tableId)
  const firstLoad = table.loading && table.total === null
  return (
    <div
      className="emberline-table-view"
      role="tabpanel"
      id={tabPanelId(tableId)}
      aria-labelledby={tabTitleId(tableId)}
      aria-busy={table.loading}
      data-table-id={tableId}
      data-page={table.page}
    >
      <div className="emberline-table-toolbar">
        <AddFilterForm
          definition={definition}
          onAdd={(filter) => actor.send({ type: 'filter.add', filter })}
        />
        <FilterChips
          filters={filters}
          definition={definition}
          onRemove={(filterId) => actor.send({ type: 'filter.remove', filterId })}
        />
        <span className="emberline-toolbar-spacer" />
        {table.loading && <Spinner size={16} aria-label="Loading" className="emberline-table-loading" />}
        <TablePagination
          page={table.page}
          total={table.total}
          itemsPerPage={itemsPerPage}
          loading={table.loading}
          onPage={(page) => actor.send({ type: 'page.set', page })}
        />
        <ExportCsvButton definition={definition} filters={filters} />
        {/* A table over another server's features has no dataset of ours to export or serve. */}
        {definition.dataset !== undefined && (
          <ExportGisMenu definition={definition} dataset={definition.dataset} filters={filters} />
        )}
        {definition.dataset !== undefined && (
          <CopyOgcUrlButton definition={definition} dataset={definition.dataset} filters={filters} />
        )}
      </div>
      {table.lastAnswerEmpty && table.rows.length > 0 && (
        <Callout intent="warning" compact className="emberline-no-match">
          No records match; showing the previous rows.
        </Callout>
      )}
      {firstLoad ? (
        <NonIdealState icon={<Spinner size={24} />} description="Loading…" />
      ) : table.rows.length === 0 ? (
        <NonIdealState icon="th-disconnect" description="No records." />
      ) : (
        <TableGrid definition={definition} rows={table.rows} now={now} />
      )}
    </div>
  )
}
