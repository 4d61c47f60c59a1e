// Types for lineclip 2.x (untyped): Cohen–Sutherland polyline and Sutherland–Hodgman polygon clipping.
declare module 'lineclip' {
  export type ClipPoint = [number, number]
  export type ClipBox = [number, number, number, number]
  export function clipPolyline(points: ClipPoint[], bbox: ClipBox, result?: ClipPoint[][]): ClipPoint[][]
  export function clipPolygon(points: ClipPoint[], bbox: ClipBox): ClipPoint[]
}
