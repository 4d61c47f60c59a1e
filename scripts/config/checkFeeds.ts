import type { FeedDefinition, FeedFieldMapping, FeedsConfig, GridFeedDefinition, GridFeedSource } from '../../src/generated/types'
import type { CatalogueIndex } from './catalogueIndex'
import type { PathSegment } from './problem'

const F = 'feeds'
const CSV_FORMATS = new Set(['csv', 'mesowest-csv'])

function checkMapping(ix: CatalogueIndex, feed: FeedDefinition, name: string, m: FeedFieldMapping, type: string, at: PathSegment[]): void {
  const from = m.from === undefined ? [] : Array.isArray(m.from) ? m.from : [m.from]
  if (from.length === 0 && m.value === undefined && m.default === undefined)
    ix.ctx.report(F, at, `field '${name}' needs 'from' (a feed field), 'value' or 'default'`)
  if (m.time !== undefined) {
    if (type !== 'date') ix.ctx.report(F, [...at, 'time'], `'${name}' is a ${type} field of dataset '${feed.dataset}'; 'time' fills date fields`)
    const want = m.time === 'dateHhmm' ? 2 : 1
    if (from.length !== want) ix.ctx.report(F, [...at, 'from'], `time: ${m.time} reads ${want === 2 ? 'two fields (date, HHMM)' : 'one field'}`)
  } else if (from.length > 1) ix.ctx.report(F, [...at, 'from'], `two fields are only read by 'time: dateHhmm'`)
  if (m.convert !== undefined && type !== 'number') ix.ctx.report(F, [...at, 'convert'], `'${name}' is a ${type} field; 'convert' fills number fields`)
  if (m.match !== undefined) {
    try {
      new RegExp(m.match)
    } catch (e) {
      ix.ctx.report(F, [...at, 'match'], `not a regular expression: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  if (m.ranges && m.ranges.slice(0, -1).some((r) => r.below === undefined))
    ix.ctx.report(F, [...at, 'ranges'], `only the last band may omit 'below'`)
}

function checkFeed(ix: CatalogueIndex, feed: FeedDefinition, i: number): void {
  const at: PathSegment[] = ['feeds', i]
  const { url, file } = feed.source
  if ((url === undefined) === (file === undefined)) ix.ctx.report(F, [...at, 'source'], `source needs exactly one of 'url' or 'file'`)
  if (feed.mode === 'merge' && feed.keepHours === undefined) ix.ctx.report(F, [...at, 'mode'], `mode merge needs 'keepHours' (the retention window)`)
  if (CSV_FORMATS.has(feed.format) && (!feed.geometry?.lon || !feed.geometry.lat))
    ix.ctx.report(F, [...at, 'format'], `format ${feed.format} needs geometry.lon and geometry.lat (the coordinate columns)`)
  if (!ix.ctx.ref(F, [...at, 'dataset'], feed.dataset, ix.datasets, 'dataset', 'not in config/layers.yaml datasets')) return
  const ds = ix.datasets.get(feed.dataset)
  if (!ds) return
  const types = new Map(ds.fields.map((f) => [f.name, f.type]))
  const field = (segments: PathSegment[], name: string, wanted?: string): void => {
    const type = types.get(name)
    if (type === undefined) ix.ctx.report(F, segments, `'${name}' is not a field of dataset '${feed.dataset}'`)
    else if (wanted && type !== wanted) ix.ctx.report(F, segments, `'${name}' is a ${type} field; expected ${wanted}`)
  }
  for (const [name, m] of Object.entries(feed.fields)) {
    const type = types.get(name)
    if (type === undefined) ix.ctx.report(F, [...at, 'fields', name], `'${name}' is not a field of dataset '${feed.dataset}'`, true)
    else checkMapping(ix, feed, name, m, type, [...at, 'fields', name])
  }
  const key = feed.key ?? (ds.key ? [ds.key] : undefined)
  if (feed.mode === 'merge' && !key) ix.ctx.report(F, [...at, 'mode'], `mode merge needs 'key' (dataset '${feed.dataset}' declares none)`)
  feed.key?.forEach((k, j) => k !== 'geometry' && field([...at, 'key', j], k))
  if (feed.time !== undefined) field([...at, 'time'], feed.time, 'date')
  else if (feed.keepHours !== undefined) ix.ctx.report(F, [...at, 'keepHours'], `keepHours needs 'time' (the date field retention is measured on)`)
  if (feed.geometry?.pointRadiusMeters !== undefined && ds.geometry !== 'polygon')
    ix.ctx.report(F, [...at, 'geometry', 'pointRadiusMeters'], `dataset '${feed.dataset}' holds ${ds.geometry}s; pointRadiusMeters is for polygon datasets`)
}

const RUN_PLACEHOLDER = /\$\{RUN_(YYYYMMDD|YYYY|MM|DD|HH)\}/
const SPEEDS = new Set(['m/s', 'mph', 'km/h', 'knots'])

/** The grid source's url xor file, and the element/variable its format reads. */
function checkGridSource(ix: CatalogueIndex, feed: GridFeedDefinition, src: GridFeedSource, at: PathSegment[]): void {
  if ((src.url === undefined) === (src.file === undefined)) ix.ctx.report(F, at, `source needs exactly one of 'url' or 'file'`)
  if (src.element !== undefined && feed.format !== 'grib2') ix.ctx.report(F, [...at, 'element'], `'element' selects GRIB2 messages; this feed is ${feed.format}`)
  if (src.variable !== undefined && feed.format !== 'netcdf') ix.ctx.report(F, [...at, 'variable'], `'variable' selects a NetCDF variable; this feed is ${feed.format}`)
  if (src.url !== undefined && RUN_PLACEHOLDER.test(src.url) && feed.run === undefined)
    ix.ctx.report(F, [...at, 'url'], `the URL names the model run (\${RUN_…}); declare the run cadence in 'run'`)
}

/** A grid feed: its grid exists (or is `wind` with a direction source), sources, units. */
function checkGridFeed(ix: CatalogueIndex, feed: GridFeedDefinition, i: number): void {
  const at: PathSegment[] = ['gridFeeds', i]
  const wind = feed.grid === 'wind'
  if (!wind) ix.ctx.ref(F, [...at, 'grid'], feed.grid, ix.grids, 'grid', "not in config/layers.yaml grids, nor 'wind'")
  checkGridSource(ix, feed, feed.source, [...at, 'source'])
  if (feed.direction) checkGridSource(ix, feed, feed.direction, [...at, 'direction'])
  if (wind && !feed.direction) ix.ctx.report(F, [...at, 'grid'], `grid wind needs 'direction' (the wind direction source) beside the speed 'source'`)
  if (!wind && feed.direction) ix.ctx.report(F, [...at, 'direction'], `'direction' is only read for grid: wind`)
  const u = feed.units
  if (u) {
    if (u.from === undefined) ix.ctx.report(F, [...at, 'units'], `units needs 'from' (the unit of the file's values)`)
    else if (SPEEDS.has(u.from) !== SPEEDS.has(u.to) || (wind && !SPEEDS.has(u.to)))
      ix.ctx.report(F, [...at, 'units'], `cannot convert ${u.from} to ${u.to}`)
    if (wind && u.to !== 'mph') ix.ctx.report(F, [...at, 'units', 'to'], `the wind particle field is stored in mph`)
  }
}

/** config/feeds.yaml: ids, datasets, mapped fields and their types, mode/key/retention, sources; grid feeds. */
export function checkFeeds(ix: CatalogueIndex, feeds: FeedsConfig): void {
  const ids = ix.ctx.indexById(F, feeds.feeds, ['feeds'], 'feed')
  const grids = feeds.gridFeeds ?? []
  grids.forEach((g, i) => {
    if (ids.has(g.id)) ix.ctx.report(F, ['gridFeeds', i, 'id'], `duplicate feed id '${g.id}' (a feed has it)`)
  })
  ix.ctx.indexById(F, grids, ['gridFeeds'], 'grid feed')
  grids.forEach((g, i) => checkGridFeed(ix, g, i))
  const [w, s, e, n] = feeds.territory.bbox
  if (w !== undefined && s !== undefined && e !== undefined && n !== undefined && (w >= e || s >= n))
    ix.ctx.report(F, ['territory', 'bbox'], 'bbox must be [west, south, east, north] with west < east and south < north')
  feeds.feeds.forEach((feed, i) => checkFeed(ix, feed, i))
}
