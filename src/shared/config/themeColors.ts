import type { ThemeConfig } from '../../generated/types'

const HEX = /^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/

export function isHexColor(value: string): boolean {
  return HEX.test(value)
}

/**
 * The hex value of a theme colour name: a palette name (`primary`), a map colour (`epss-risk-score`)
 * or a group member (`forecastedFires.90`). Undefined when the theme has no such name.
 */
export function lookupThemeColor(theme: ThemeConfig, name: string): string | undefined {
  const palette: Readonly<Record<string, string | undefined>> = { ...theme.colors }
  if (palette[name] !== undefined) return palette[name]
  const dot = name.indexOf('.')
  const head = dot < 0 ? name : name.slice(0, dot)
  const entry = theme.map[head]
  if (entry === undefined) return undefined
  if (typeof entry === 'string') return dot < 0 ? entry : undefined
  return dot < 0 ? undefined : entry[name.slice(dot + 1)]
}

/** A colour reference (hex or theme name) as '#rrggbb[aa]', or undefined when it names nothing. */
export function colorValue(theme: ThemeConfig, ref: string): string | undefined {
  return isHexColor(ref) ? ref : lookupThemeColor(theme, ref)
}
