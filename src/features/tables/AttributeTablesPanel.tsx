import { Button, Tab, Tabs } from '@blueprintjs/core'
import { AttributeTablesActor } from './attributeTablesActor'
import { TableView } from './TableView'
import './tables.css'

export interface AttributeTablesPanelProps {
  /** Clock for 'N hours ago' columns; pass the map's clock so demo data ages from the demo date. */
  now?: () => number
}

/** The bottom panel: one tab per open table, hidden while none is open (spec §2, §4). */
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
                title={
                  <span className="emberline-tab-title" data-table-id={tableId}>
                    {name}
                    <Button
                      size="small"
                      variant="minimal"
                      icon="cross"
                      aria-label={`Close ${name}`}
                      className="emberline-tab-close"
                      onClick={(event) => {
                        event.stopPropagation()
                        actor.send({ type: 'table.close', tableId })
                      }}
                    />
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
