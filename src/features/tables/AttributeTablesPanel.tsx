import { Button, Icon, Tab, Tabs } from '@blueprintjs/core'
import { AttributeTablesActor } from './attributeTablesActor'
import { TableView } from './TableView'
import './tables.css'

export interface AttributeTablesPanelProps {
  /** Clock for 'N hours ago' columns; pass the map's clock so demo data ages from the demo date. */
  now?: () => number
}

/**
 * The bottom panel: one tab per open table, hidden while none is open (spec §2, §4). A tab closes
 * with its × (pointer) or the Delete key while the tab has focus (keyboard): a button inside a
 * role="tab" would be a control nested in a control, which screen readers cannot reach.
 */
export function AttributeTablesPanel({ now }: AttributeTablesPanelProps) {
  const actor = AttributeTablesActor.useActorRef()
  const shown = AttributeTablesActor.useSelector((s) => s.matches('shown'))
  const openOrder = AttributeTablesActor.useSelector((s) => s.context.openOrder)
  const currentTableId = AttributeTablesActor.useSelector((s) => s.context.currentTableId)
  const definitions = AttributeTablesActor.useSelector((s) => s.context.definitions)
  if (!shown) return null
  return (
    <section className="emberline-tables-panel bp6-dark" aria-label="Attribute tables">
      <div className="emberline-tables-header">
        <Tabs
          id="emberline-attribute-tables"
          selectedTabId={currentTableId ?? undefined}
          onChange={(tabId) => actor.send({ type: 'table.select', tableId: String(tabId) })}
        >
          {openOrder.map((tableId) => {
            const name = definitions[tableId]?.name ?? tableId
            return (
              <Tab
                key={tableId}
                id={tableId}
                className="emberline-table-tab"
                aria-keyshortcuts="Delete"
                aria-description="Delete closes the table"
                onKeyDown={(event) => {
                  if (event.key !== 'Delete') return
                  event.preventDefault()
                  actor.send({ type: 'table.close', tableId })
                }}
                title={
                  <span className="emberline-tab-title" data-table-id={tableId}>
                    {name}
                    <span
                      className="emberline-tab-close"
                      data-close={name}
                      title={`Close ${name}`}
                      aria-hidden="true"
                      onClick={(event) => {
                        event.stopPropagation()
                        actor.send({ type: 'table.close', tableId })
                      }}
                    >
                      <Icon icon="cross" size={14} />
                    </span>
                  </span>
                }
              />
            )
          })}
        </Tabs>
        <Button
          size="small"
          variant="minimal"
          icon="reset"
          text="Reset"
          className="emberline-tables-reset"
          onClick={() => actor.send({ type: 'reset' })}
        />
      </div>
      {currentTableId && <TableView key={currentTableId} tableId={currentTableId} now={now} />}
    </section>
  )
}
