import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import type { FeedsConfig } from '../../shared/config'

/**
 * The feeds of a config directory (CONFIG_DIR/feeds.yaml) for a server started with CONFIG_DIR,
 * as loadCatalog reads its layers.yaml; null when the directory has no feeds.yaml (the built
 * config/feeds.yaml is used). Run `npm run validate-config -- <dir>` on the directory first: this
 * reads the YAML as written.
 */
export function loadFeedsConfig(dir: string): FeedsConfig | null {
  const file = path.join(dir, 'feeds.yaml')
  if (!fs.existsSync(file)) return null
  const data = parse(fs.readFileSync(file, 'utf8')) as Partial<FeedsConfig> | null
  if (!data || !Array.isArray(data.feeds) || !data.territory)
    throw new Error(`config: ${file} needs territory and feeds`)
  return data as FeedsConfig
}
