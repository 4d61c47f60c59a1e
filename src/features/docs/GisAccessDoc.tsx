import { Button, Code, H2, H3, H4, Pre } from '@blueprintjs/core'
import { Fragment, useMemo } from 'react'
import { notify } from '../../shared/toastEvents'
import { currentSessionToken } from '../session'
import { buildGisAccessDoc, GDAL_HEADER_OPTION } from './buildGisAccessDoc'
import './gisAccess.css'

async function copy(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
    notify('success', `${what} copied`)
  } catch {
    notify('error', `Could not copy the ${what.toLowerCase()}`)
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
      {doc.layers.map((layer) => (
        <div key={layer.id} className="emberline-gis-layer" data-gis-layer-id={layer.id}>
          <H4>{layer.name}</H4>
          <dl>
            {layer.collectionUrl && (
              <>
                <dt>OGC API collection</dt>
                <dd>
                  <Code className="emberline-collection-url">{layer.collectionUrl}</Code>
                </dd>
              </>
            )}
            {layer.tileJson.map((t) => (
              <Fragment key={t.url}>
                <dt>TileJSON ({t.kind})</dt>
                <dd>
                  <Code className="emberline-tilejson-url">{t.url}</Code>
                </dd>
              </Fragment>
            ))}
            {layer.styles.map((s) => (
              <Fragment key={s}>
                <dt>MapLibre style</dt>
                <dd>
                  <Code>{s}</Code>
                </dd>
              </Fragment>
            ))}
          </dl>
          {layer.commands.map((c) => (
            <Pre key={c} className="emberline-gdal-command">
              {c}
            </Pre>
          ))}
        </div>
      ))}
    </section>
  )
}
