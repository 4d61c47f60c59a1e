import { Button, type IconName } from '@blueprintjs/core'
import { useState } from 'react'
import { layersConfig, type Category } from '../../shared/config'
import { LayerRow } from './LayerRow'
import { useHiddenLayerIds } from './useSourceStatus'

function categoryRows(categories: readonly Category[]): Category[][] {
  const rows = [...new Set(categories.map((c) => c.row))].sort((a, b) => a - b)
  return rows.map((row) => categories.filter((c) => c.row === row))
}

export interface LayerSidebarProps {
  readonly onOpenTable?: (tableId: string) => void
}

/**
 * The layer sidebar, entirely from config: category icons in their rows (a category narrows the list;
 * choosing it again shows all), then the default-list layers grouped by category.
 */
export function LayerSidebar({ onOpenTable }: LayerSidebarProps) {
  const [only, setOnly] = useState<string | null>(null)
  // Layers of a source switched off on the server (its `${NAME}` url unset) are not offered.
  const hidden = useHiddenLayerIds()
  const layers = layersConfig.layers.filter((l) => l.inDefaultList !== false && !hidden.has(l.id))
  const categories = layersConfig.categories.filter((c) => !only || c.id === only)
  return (
    <aside className="el-sidebar" aria-label="Layers">
      <nav className="el-categories" aria-label="Layer categories">
        {categoryRows(layersConfig.categories).map((row, i) => (
          <div className="el-category-row" key={i} data-row={i + 1}>
            {row.map((c) => (
              <Button
                key={c.id}
                className="el-category"
                icon={c.icon as IconName}
                active={only === c.id}
                variant="minimal"
                aria-pressed={only === c.id}
                onClick={() => setOnly(only === c.id ? null : c.id)}
              >
                {c.name}
              </Button>
            ))}
          </div>
        ))}
      </nav>
      <div className="el-layer-groups">
        {categories.map((c) => {
          const inCategory = layers.filter((l) => l.category === c.id)
          if (inCategory.length === 0) return null
          return (
            <section key={c.id} className="el-layer-group" data-category={c.id}>
              <h4 className="el-layer-group-title">{c.name}</h4>
              <ul>
                {inCategory.map((l) => (
                  <LayerRow key={l.id} layer={l} onOpenTable={onOpenTable} />
                ))}
              </ul>
            </section>
          )
        })}
      </div>
    </aside>
  )
}
