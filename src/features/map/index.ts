export { MapScreen } from './MapScreen'
export type { MapScreenProps } from './MapScreen'
export { whenMapDrawn } from './render/firstDraw'
export { useMapHighlighter } from './highlight/useMapHighlighter'
export { useMapHighlight } from './highlight/useMapHighlight'
export { useMapImage, type MapImage } from './image/useMapImage'
export { lazyPart, type LazyPartProps } from './lazy/LazyPart'
export type {
  Bbox,
  DrawnHighlight,
  HighlightStyle,
  MapHighlighter,
  MapLabel,
} from './highlight/mapHighlighter'
