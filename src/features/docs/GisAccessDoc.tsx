import { Button, Code, H2, H3, HTMLTable, Pre } from '@blueprintjs/core'
import { useMemo } from 'react'
import { showToast } from '../../app/toasts'
import { currentSessionToken } from '../session/authFetch'
import { buildGisAccessDoc, GDAL_HEADER_OPTION } from './buildGisAccessDoc'

async function copy(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
    void showToast('success', `${what} copied`)
  } catch {
    void showToast('error', `Could not copy the ${what.toLowerCase()}`)
  }
}

/** "Use in QGIS / GDAL": OGC API, TileJSON and style URLs and GDAL commands per layer, from config. */
export function GisAccessSection({ origin }: { origin?: string }) {
  const base = origin ?? globalThis.location?.origin ?? ''
  const doc = useMemo(() => buildGisAccessDoc(base), [base])
  return (
    <section id="gis-access" aria-labelledby="gis-access-title">
      <H2 id="gis-access-title">Use in QGIS / GDAL</H2>
      <p>
        Every layer with a table is an OGC API – Features collection at <Code>{doc.landingUrl}</Code>; every
        tile source has a TileJSON document; every vector layer has a MapLibre style that draws it as the web
        map does. All of them need your session token as a header:{' '}
        <Code>Authorization: Bearer &lt;token&gt;</Code> (it expires with your session).
      </p>
      <p>
        <Button
          size="small"
          icon="key"
          text="Copy my session token"
          className="emberline-copy-token"
          onClick={() => void copy(currentSessionToken() ?? '', 'Session token')}
        />
      </p>
      <H3>QGIS</H3>
      <ol>
        <li>
          Settings ▸ Options ▸ Authentication: add a configuration of type <em>API Header</em> with the key{' '}
          <Code>Authorization</Code> and the value <Code>Bearer &lt;token&gt;</Code>.
        </li>
        <li>
          Layer ▸ Add Layer ▸ Add WFS / OGC API – Features Layer: new connection with the URL{' '}
          <Code>{doc.landingUrl}</Code> and that authentication; the collections are listed.
        </li>
        <li>
          Vector tiles: Layer ▸ Add Layer ▸ Add Vector Tile Layer ▸ New Generic Connection, URL from a layer's
          TileJSON below (or its tiles URL), style URL from its style; raster tiles: a new XYZ connection.
          Tileset list: <Code>{doc.tilesetsUrl}</Code>; styles: <Code>{doc.stylesUrl}</Code>.
        </li>
      </ol>
      <H3>GDAL</H3>
      <p>
        Put the token in a shell variable, then run the commands below (GDAL sends the header given with{' '}
        <Code>{GDAL_HEADER_OPTION}</Code>):
      </p>
      <Pre>export EMBERLINE_TOKEN='&lt;token&gt;'</Pre>
      <HTMLTable compact className="emberline-gis-access">
        <thead>
          <tr>
            <th scope="col">Layer</th>
            <th scope="col">OGC API collection, TileJSON and style</th>
            <th scope="col">GDAL</th>
          </tr>
        </thead>
        <tbody>
          {doc.layers.map((layer) => (
            <tr key={layer.id} data-gis-layer-id={layer.id}>
              <th scope="row">{layer.name}</th>
              <td>
                {layer.collectionUrl && (
                  <div>
                    Collection: <Code className="emberline-collection-url">{layer.collectionUrl}</Code>
                  </div>
                )}
                {layer.tileJson.map((t) => (
                  <div key={t.url}>
                    TileJSON ({t.kind}): <Code className="emberline-tilejson-url">{t.url}</Code>
                  </div>
                ))}
                {layer.styles.map((s) => (
                  <div key={s}>
                    Style: <Code>{s}</Code>
                  </div>
                ))}
              </td>
              <td>
                {layer.commands.map((c) => (
                  <Pre key={c} className="emberline-gdal-command">
                    {c}
                  </Pre>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </section>
  )
}
