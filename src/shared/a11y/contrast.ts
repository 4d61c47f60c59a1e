/**
 * WCAG 2.1 colour contrast (success criterion 1.4.3): relative luminance, contrast ratio and the
 * more readable of two text colours on a background. Pure: no React or DOM.
 */

/** WCAG 2.1 AA minimum for normal-size text. */
export const minTextContrast = 4.5

function channel(hex: string, index: number): number {
  const v = parseInt(hex.slice(1 + index * 2, 3 + index * 2), 16) / 255
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
}

/** Relative luminance of '#rrggbb' (an alpha suffix is ignored), 0 (black) to 1 (white). */
export function luminance(hex: string): number {
  if (!/^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/.test(hex)) throw new Error(`not a #rrggbb colour: ${hex}`)
  return 0.2126 * channel(hex, 0) + 0.7152 * channel(hex, 1) + 0.0722 * channel(hex, 2)
}

/** Contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

/** Of `light` and `dark`, the text colour with the higher contrast on `background`. */
export function readableTextOn(background: string, light: string, dark: string): string {
  return contrastRatio(background, light) >= contrastRatio(background, dark) ? light : dark
}
