import { themeConfig } from '../../generated/config'
import type { ThemeConfig } from '../../generated/types'
import { colorValue } from './themeColors'

/**
 * A colour reference from config — '#rrggbb[aa]' or a theme name such as `primary`, `epss-risk-score`,
 * `fireIntensity.high` or `windSpeed.10` — as '#rrggbb[aa]'. The compiler guarantees every reference
 * in config resolves, so an unknown name is a programming error and throws.
 */
export function resolveColor(ref: string, theme: ThemeConfig = themeConfig): string {
  const value = colorValue(theme, ref)
  if (value === undefined) throw new Error(`Unknown colour '${ref}': not '#rrggbb[aa]' and not a name in config/theme.yaml`)
  return value
}
