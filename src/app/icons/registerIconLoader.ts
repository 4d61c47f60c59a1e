import { Icons, type IconName, type IconPaths } from '@blueprintjs/icons'
import { splitPathsBySizeLoader } from '@blueprintjs/icons/lib/esm/paths-loaders/splitPathsBySizeLoader'

type Subset = Record<number, Record<string, IconPaths | undefined> | undefined>

let subset: Promise<Subset> | null = null

/** Paths of an icon: from the app's subset chunk, else Blueprint's loader (the whole size's chunk). */
export async function loadIconPaths(name: IconName, size: number): Promise<IconPaths> {
  subset ??= import('virtual:icon-subset').then((m) => m.default)
  const paths = (await subset)[size]?.[name]
  return paths ?? splitPathsBySizeLoader(name, size)
}

/** Blueprint's <Icon> loads through our subset loader (call once, before the first render). */
export function registerIconLoader(): void {
  Icons.setLoaderOptions({ loader: loadIconPaths })
}
