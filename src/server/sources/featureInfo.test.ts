import { describe, expect, it } from 'vitest'
import {
  MAX_ATTRIBUTES,
  MAX_FEATURES,
  MAX_VALUE_CHARS,
  parseFeatureInfo,
  UnreadableInfo,
} from './featureInfo'

const b = (s: string) => Buffer.from(s)

describe('parseFeatureInfo', () => {
  it('reads GeoServer plain text, one feature per ----- block', () => {
    const text = [
      "Results for FeatureType 'fire:wfpi':",
      '--------------------------------------------',
      'GRAY_INDEX = 142.0',
      'class = high',
      '--------------------------------------------',
      'GRAY_INDEX = 12.0',
      'class = low',
      '--------------------------------------------',
    ].join('\n')
    expect(parseFeatureInfo(b(text), 'text/plain')).toEqual([
      { layer: 'fire:wfpi', attributes: { GRAY_INDEX: '142.0', class: 'high' } },
      { layer: 'fire:wfpi', attributes: { GRAY_INDEX: '12.0', class: 'low' } },
    ])
  })

  it('reads WFS-style GML (featureMember), skipping geometry and gml: elements', () => {
    const xml = `<wfs:FeatureCollection xmlns:wfs="http://www.opengis.net/wfs" xmlns:gml="http://www.opengis.net/gml" xmlns:fire="urn:fire">
      <gml:featureMember><fire:perimeter gml:id="p.1"><gml:name>x</gml:name>
        <fire:name>Ridge Fire</fire:name><fire:acres>1200</fire:acres>
        <fire:geom><gml:Polygon><gml:exterior/></gml:Polygon></fire:geom>
      </fire:perimeter></gml:featureMember></wfs:FeatureCollection>`
    expect(parseFeatureInfo(b(xml), 'application/vnd.ogc.gml')).toEqual([
      { layer: 'perimeter', attributes: { name: 'Ridge Fire', acres: '1200' } },
    ])
  })

  it('reads ArcGIS identify results', () => {
    const json = {
      results: [{ layerId: 0, layerName: 'Substations', attributes: { NAME: 'Bernalillo', KV: 115 } }],
    }
    expect(parseFeatureInfo(b(JSON.stringify(json)), 'application/json')).toEqual([
      { layer: 'Substations', attributes: { NAME: 'Bernalillo', KV: 115 } },
    ])
  })

  it('refuses HTML, a ServiceException, an ArcGIS error and broken JSON', () => {
    expect(() => parseFeatureInfo(b('<html><body>x</body></html>'), 'text/html')).toThrow(UnreadableInfo)
    expect(() =>
      parseFeatureInfo(
        b('<ServiceExceptionReport><ServiceException>bad layer</ServiceException></ServiceExceptionReport>'),
        'text/xml',
      ),
    ).toThrow(/bad layer/)
    expect(() =>
      parseFeatureInfo(b('{"error":{"code":498,"message":"Invalid token"}}'), 'application/json'),
    ).toThrow(/Invalid token/)
    expect(() => parseFeatureInfo(b('{"features": [1,'), 'application/json')).toThrow(UnreadableInfo)
  })

  it('bounds the features, attributes and value lengths', () => {
    const props = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`a${i}`, 'x'.repeat(2000)]))
    const fc = {
      type: 'FeatureCollection',
      features: Array.from({ length: 30 }, () => ({ properties: props })),
    }
    const out = parseFeatureInfo(b(JSON.stringify(fc)), 'application/json')
    expect(out).toHaveLength(MAX_FEATURES)
    expect(Object.keys(out[0]!.attributes)).toHaveLength(MAX_ATTRIBUTES)
    expect(String(out[0]!.attributes.a0)).toHaveLength(MAX_VALUE_CHARS)
  })
})
