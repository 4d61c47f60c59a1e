import type { ReactNode } from 'react'
import { AttributeTablesActor } from './attributeTablesActor'
import type { attributeTablesMachine } from './attributeTablesMachine'

export interface AttributeTablesProviderProps {
  children: ReactNode
  /** A machine with test implementations (e.g. `attributeTablesMachine.provide(...)`). */
  logic?: typeof attributeTablesMachine
}

/** Runs one attribute-tables machine for everything below it (sidebar, map, panel). */
export function AttributeTablesProvider({ children, logic }: AttributeTablesProviderProps) {
  return <AttributeTablesActor.Provider logic={logic}>{children}</AttributeTablesActor.Provider>
}
