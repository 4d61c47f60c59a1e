import { kml } from '@tmcw/togeojson'
import { DOMParser } from '@xmldom/xmldom'
import type { ParsedFeed } from './feedTypes'
import { FeedFormatError } from './FeedFormatError'
import { featureRecords } from './parseGeoJson'

/** KML placemarks (HMS smoke) through @tmcw/togeojson: name, description, styleUrl and geometry. */
export function parseKml(text: string): ParsedFeed {
  let doc: ReturnType<DOMParser['parseFromString']>
  try {
    doc = new DOMParser({
      onError: (level, msg) => {
        if (level !== 'warning') throw new Error(msg)
      },
    }).parseFromString(text, 'text/xml')
  } catch (e) {
    throw new FeedFormatError(`not KML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`)
  }
  const root = doc.documentElement
  if (!root || root.nodeName.replace(/^.*:/, '') !== 'kml')
    throw new FeedFormatError(`not KML: the root element is '${root?.nodeName ?? 'none'}'`)
  const collection = kml(doc as unknown as Document)
  const parsed = { records: featureRecords(collection.features), unit: 'feature' as const }
  // togeojson keeps an HTML description as { '@type': 'html', value }: the text is what feeds match on.
  for (const r of parsed.records)
    for (const [k, v] of Object.entries(r.props))
      if (v && typeof v === 'object' && typeof (v as { value?: unknown }).value === 'string')
        r.props[k] = (v as { value: string }).value
  return parsed
}
