import { themeConfig } from '../config'
import { readableTextOn } from './contrast'

/**
 * The theme's text colour (light) or surface colour (dark), whichever reads better on `background`
 * ('#rrggbb'); the text colour when `background` is not a hex colour.
 */
export function themeTextOn(background: string): string {
  const { text, surface } = themeConfig.colors
  return /^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/.test(background)
    ? readableTextOn(background, text, surface)
    : text
}
