import { useCallback } from 'react'
import { AttributeTablesActor } from './attributeTablesActor'

export interface AttributeTablesApi {
  /** Opens a table (fetching its rows with its filters), shows the panel and makes it the current tab. */
  openTable(tableId: string): void
  /** Closes a table's tab; the panel hides when none remain. */
  closeTable(tableId: string): void
  isOpen(tableId: string): boolean
  /** Clears filters, the current table and tabs, and hides the panel. */
  reset(): void
  /** Ids of the open tables in tab order. */
  openTableIds: readonly string[]
  currentTableId: string | null
}

/** Open, close and query attribute tables from anywhere under AttributeTablesProvider. */
export function useAttributeTables(): AttributeTablesApi {
  const actor = AttributeTablesActor.useActorRef()
  const openTableIds = AttributeTablesActor.useSelector((s) => s.context.openOrder)
  const currentTableId = AttributeTablesActor.useSelector((s) => s.context.currentTableId)
  const openTable = useCallback((tableId: string) => actor.send({ type: 'table.open', tableId }), [actor])
  const closeTable = useCallback((tableId: string) => actor.send({ type: 'table.close', tableId }), [actor])
  const reset = useCallback(() => actor.send({ type: 'reset' }), [actor])
  const isOpen = useCallback((tableId: string) => openTableIds.includes(tableId), [openTableIds])
  return { openTable, closeTable, isOpen, reset, openTableIds, currentTableId }
}
