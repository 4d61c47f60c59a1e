/**
 * Our own glyphs for critical-infrastructure icons, as SVG path data in a 24×24 box (white on a
 * coloured disc). Used both on the map canvas (Path2D) and in the sidebar legend (<svg>).
 */
export const ICON_GLYPHS: Readonly<Record<string, string>> = {
  'communications-tower':
    'M12 4 L16 20 H14.5 L12 10 L9.5 20 H8 Z M6 6 A8 8 0 0 0 6 14 M18 6 A8 8 0 0 1 18 14',
  'emergency-shelter': 'M12 4 L20 11 H17.5 V19 H6.5 V11 H4 Z M10.5 13 V19 H13.5 V13 Z',
  'fire-station':
    'M12 3 C13 7 17 9 17 14 A5 5 0 0 1 7 14 C7 11 9 10 9.5 7 C10.5 9 11 10 12 10 C12.5 8 12 5 12 3 Z',
  'gas-station': 'M6 5 H14 V20 H6 Z M8 7 V11 H12 V7 Z M14 10 H16 V17 A1 1 0 0 0 18 17 V9 L16 7',
  hospital: 'M10 5 H14 V10 H19 V14 H14 V19 H10 V14 H5 V10 H10 Z',
  supermarket: 'M4 6 H7 L9 15 H18 L20 8 H8 M10 18 A1.5 1.5 0 1 0 10 18.01 M17 18 A1.5 1.5 0 1 0 17 18.01',
  'water-pump': 'M12 4 C14 8 17 11 17 14.5 A5 5 0 0 1 7 14.5 C7 11 10 8 12 4 Z',
  'water-tower': 'M7 4 H17 V10 H7 Z M8 10 L6.5 20 M16 10 L17.5 20 M12 10 V20 M8 15 H16',
  unknown: 'M9 9 A3 3 0 1 1 12 12 V14 M12 17 V18.5',
}

/** Path data for an icon name; anything unknown gets the `unknown` glyph. */
export function glyphPath(icon: string): string {
  return ICON_GLYPHS[icon] ?? ICON_GLYPHS.unknown ?? ''
}
