export { MapScreen } from './MapScreen'
export type { MapScreenProps } from './MapScreen'
export { MapInstanceContext, useLeafletMap } from './mapContext'
export { whenMapDrawn } from './render/firstDraw'
