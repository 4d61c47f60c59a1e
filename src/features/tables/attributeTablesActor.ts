import { createActorContext } from '@xstate/react'
import { attributeTablesMachine } from './attributeTablesMachine'

/** The attribute-tables actor of the current map screen, shared by the panel and the sidebar. */
export const AttributeTablesActor = createActorContext(attributeTablesMachine)
