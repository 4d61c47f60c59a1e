import { H1, H2, HTMLTable } from '@blueprintjs/core'
import { useMemo } from 'react'
import { buildDocumentation, type DocumentationSources } from './buildDocumentation'
import { ExternalSourcesDoc } from './ExternalSourcesDoc'
import { FireWhatIfDoc } from './FireWhatIfDoc'
import { GisAccessSection } from './GisAccessDoc'
import { LayerDoc } from './LayerDoc'
import { OperationsDoc } from './OperationsDoc'
import { buildOperationsDoc } from './operationsDoc'
import { appConfig, layersConfig, screenTitle, tablesConfig } from '../../shared/config'
import { useHiddenLayerIds } from '../layers'
import './docs.css'

/** /Documentation: generated from config (layers, tables, app texts) so it cannot drift. */
export function DocumentationScreen({ sources }: { sources?: DocumentationSources }) {
  // Layers of a source switched off on the server (its `${NAME}` url unset) are not documented.
  const hidden = useHiddenLayerIds()
  const docs = useMemo(
    () =>
      buildDocumentation(
        sources ?? {
          app: appConfig,
          layers: { ...layersConfig, layers: layersConfig.layers.filter((l) => !hidden.has(l.id)) },
          tables: tablesConfig,
        },
      ),
    [sources, hidden],
  )
  const operations = useMemo(() => buildOperationsDoc(), [])
  return (
    <main className="emberline-docs bp6-running-text" aria-labelledby="docs-title">
      <H1 id="docs-title">{screenTitle('/Documentation')}</H1>
      <p>{docs.intro}</p>
      <nav aria-label="Contents">
        <ul className="emberline-docs-toc">
          {docs.reading.map((r, i) => (
            <li key={r.title}>
              <a href={`#reading-${i}`}>{r.title}</a>
            </li>
          ))}
          <li>
            <a href="#risk-labels">Risk labels</a>
          </li>
          <li>
            <a href="#cadence">Data cadence</a>
          </li>
          {docs.categories.map((c) => (
            <li key={c.id}>
              <a href={`#category-${c.id}`}>{c.name}</a>
            </li>
          ))}
          <li>
            <a href="#operations">Operations views</a>
          </li>
          <li>
            <a href="#fire-what-if">What if a fire starts here?</a>
          </li>
          <li>
            <a href="#gis-access">Use in QGIS / GDAL</a>
          </li>
        </ul>
      </nav>
      {docs.reading.map((r, i) => (
        <section key={r.title} id={`reading-${i}`}>
          <H2>{r.title}</H2>
          {r.paragraphs.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </section>
      ))}
      <section id="risk-labels">
        <H2>Risk labels</H2>
        <HTMLTable compact>
          <thead>
            <tr>
              <th scope="col">Score</th>
              <th scope="col">Label</th>
            </tr>
          </thead>
          <tbody>
            {docs.riskLabels.map((r) => (
              <tr key={r.label}>
                <td>{r.range}</td>
                <td>{r.label}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </section>
      <section id="cadence">
        <H2>Data cadence</H2>
        <dl>
          {docs.cadence.map((c) => (
            <div key={c.subject}>
              <dt>{c.subject}</dt>
              <dd>{c.text}</dd>
            </div>
          ))}
        </dl>
      </section>
      {docs.categories.map((category) => (
        <section key={category.id} id={`category-${category.id}`} data-category-id={category.id}>
          <H2>{category.name}</H2>
          {category.layers.map((layer) => (
            <LayerDoc key={layer.id} layer={layer} />
          ))}
        </section>
      ))}
      <OperationsDoc doc={operations} />
      <FireWhatIfDoc />
      <ExternalSourcesDoc />
      <GisAccessSection />
    </main>
  )
}
