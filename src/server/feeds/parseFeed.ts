import type { FeedDefinition } from '../../shared/config'
import type { ParsedFeed } from './feedTypes'
import { parseCsv, parseMesowestCsv } from './parseCsv'
import { parseGeoJson } from './parseGeoJson'
import { parseKml } from './parseKml'
import { parseSynoptic } from './parseSynoptic'

/** Parses a body in the feed's declared format; a body of another format throws FeedFormatError. */
export function parseFeed(feed: FeedDefinition, text: string): ParsedFeed {
  const coords = feed.geometry?.lon && feed.geometry.lat ? [feed.geometry.lon, feed.geometry.lat] : []
  switch (feed.format) {
    case 'csv':
      return parseCsv(text, coords)
    case 'mesowest-csv':
      return parseMesowestCsv(text, coords)
    case 'geojson':
      return parseGeoJson(text)
    case 'kml':
      return parseKml(text)
    case 'synoptic-json':
      return parseSynoptic(text)
  }
}
