import type { FastifyInstance } from 'fastify'
import { GeoTIFF, type GeoTIFFImage } from 'geotiff'
import {
  layersConfig,
  resolveColor,
  themeConfig,
  type ClassesLegend,
  type CogSource,
  type GradientLegend,
} from '../../../shared/config'
import { colorRamp, type ColorRamp } from '../../../shared/colorRamp'
import type { GridRaster } from '../../grids/gridRaster'
import { encodePng, renderTilePixels, tileBounds } from '../../grids/renderTile'
import { noQuery } from '../../http/schemas'
import { TILE_PARAMS_SCHEMA, type TileParams } from '../../tiles/tileMath'
import type { InfoAnswer, InfoFeature } from '../featureInfo'
import { UpstreamFailure } from '../fetchUpstream'
import { tileBbox3857 } from '../upstreamUrl'
import { archiveError, fetchFor, filledUrl, type KindContext } from './archive'
import { refuseTileAddress } from '../tileAddress'

/** EPSG codes of longitude/latitude systems read as they are (as our own GeoTIFF grids). */
const GEOGRAPHIC = new Set([4326, 4269, 4258, 4283])
/** EPSG (and Esri) codes of Web Mercator: the tiles' own projection, read without reprojection. */
const WEB_MERCATOR = new Set([3857, 900913, 3785, 102100, 102113])
/** Half the width of the Web Mercator world, in metres. */
const HALF_WORLD = 20037508.342789244

/** A GeoTIFF whose projection we cannot read (the message says which it is and which we read). */
export class UnsupportedCrs extends UpstreamFailure {
  constructor(what: string) {
    super(
      502,
      `the GeoTIFF is in ${what}; only longitude/latitude (EPSG:4326 and other geographic) and Web Mercator (EPSG:3857) are supported`,
    )
  }
}

/** The coordinate system of a GeoTIFF from its geo keys: degrees, Web Mercator metres, or UnsupportedCrs. */
export function cogCrs(keys: Record<string, unknown>): 'degrees' | 'mercator' {
  const model = keys.GTModelTypeGeoKey
  const geographic = Number(keys.GeographicTypeGeoKey ?? 0)
  const projected = Number(keys.ProjectedCSTypeGeoKey ?? 0)
  if (model === 2 && (geographic === 0 || GEOGRAPHIC.has(geographic))) return 'degrees'
  if (model === 1 && WEB_MERCATOR.has(projected)) return 'mercator'
  if (model === 1)
    throw new UnsupportedCrs(
      projected && projected !== 32767 ? `EPSG:${projected}` : 'a user-defined projection',
    )
  if (model === 2) throw new UnsupportedCrs(`EPSG:${geographic}`)
  throw new UnsupportedCrs('no known coordinate system')
}

/** Web Mercator metres of a longitude/latitude. */
function toMercator(lon: number, lat: number): [number, number] {
  const y = Math.log(Math.tan(((90 + lat) * Math.PI) / 360)) * (HALF_WORLD / Math.PI)
  return [(lon * HALF_WORLD) / 180, y]
}

/** geotiff's source interface over our proxied range requests (each range cached and coalesced). */
class ProxiedRanges {
  fileSize: number | null = null
  constructor(private readonly read: (offset: number, length: number) => Promise<Buffer>) {}
  async fetch(slices: readonly { offset: number; length: number }[]): Promise<ArrayBuffer[]> {
    return Promise.all(
      slices.map(async ({ offset, length }) => {
        const b = await this.read(offset, length)
        return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer
      }),
    )
  }
  async close(): Promise<void> {}
}

/** An opened COG: its full-resolution image, its overviews and their extent in its own units. */
export interface OpenedCog {
  /** degrees: west..north are longitude/latitude; mercator: EPSG:3857 metres. */
  readonly crs: 'degrees' | 'mercator'
  readonly images: readonly GeoTIFFImage[]
  readonly west: number
  readonly south: number
  readonly east: number
  readonly north: number
  readonly noData: number | null
}

export type RampedLegend = GradientLegend | ClassesLegend

/** The source's legend (validate-config guarantees a gradient or classes legend of that id). */
export function cogLegend(source: CogSource, legends = layersConfig.legends): RampedLegend {
  const legend = legends.find((l) => l.id === source.legend)
  if (legend?.type === 'gradient' || legend?.type === 'classes') return legend
  throw new UpstreamFailure(
    502,
    `the legend '${source.legend}' of this source is not a gradient or classes legend`,
  )
}

export async function openCog(ctx: KindContext, source: CogSource): Promise<OpenedCog> {
  const ranges = new ProxiedRanges(async (offset, length) => {
    const got = await fetchFor(ctx, source, filledUrl(source.url, ctx.env), { offset, length })
    if (got.status === 416) return Buffer.alloc(0)
    if (got.status !== 200)
      throw new UpstreamFailure(502, `upstream answered HTTP ${got.status} to a range request`)
    return got.body
  })
  const tiff = await GeoTIFF.fromSource(ranges)
  const count = await tiff.getImageCount()
  const all: GeoTIFFImage[] = []
  for (let i = 0; i < count; i++) all.push(await tiff.getImage(i))
  const first = all[0]!
  const crs = cogCrs((first.getGeoKeys() ?? {}) as Record<string, unknown>)
  // Masks (NewSubfileType bit 4) are not values; overviews (bit 1) share the full image's extent.
  const images = all.filter((im) => (Number(im.fileDirectory.NewSubfileType ?? 0) & 4) === 0)
  const [west, south, east, north] = first.getBoundingBox() as [number, number, number, number]
  return { crs, images, west, south, east, north, noData: first.getGDALNoData() }
}

/** The coarsest image with at least one pixel per tile pixel (the full image when none is that fine); units per pixel in the COG's own units. */
function imageFor(cog: OpenedCog, unitsPerPixel: number): GeoTIFFImage {
  let best = cog.images[0]!
  for (const im of cog.images) {
    const res = (cog.east - cog.west) / im.getWidth()
    const bestRes = (cog.east - cog.west) / best.getWidth()
    if (res <= unitsPerPixel && res > bestRes) best = im
  }
  return best
}

/** The window of an image covering [w, s, e, n] (in the COG's units), read as a grid in those units (no-data and non-finite values as NaN). */
async function readWindow(
  cog: OpenedCog,
  image: GeoTIFFImage,
  band: number,
  box: [number, number, number, number],
): Promise<GridRaster | null> {
  const nx = image.getWidth()
  const ny = image.getHeight()
  const rx = (cog.east - cog.west) / nx
  const ry = (cog.north - cog.south) / ny
  const x0 = Math.max(0, Math.floor((box[0] - cog.west) / rx))
  const x1 = Math.min(nx, Math.ceil((box[2] - cog.west) / rx))
  const y0 = Math.max(0, Math.floor((cog.north - box[3]) / ry))
  const y1 = Math.min(ny, Math.ceil((cog.north - box[1]) / ry))
  if (x1 <= x0 || y1 <= y0) return null
  if (band > image.getSamplesPerPixel()) {
    throw new UpstreamFailure(
      502,
      `the GeoTIFF has ${image.getSamplesPerPixel()} band(s); band ${band} asked`,
    )
  }
  const rasters = (await image.readRasters({
    window: [x0, y0, x1, y1],
    samples: [band - 1],
  })) as unknown as ArrayLike<number>[]
  const values = rasters[0]!
  const data = new Float32Array((x1 - x0) * (y1 - y0))
  for (let k = 0; k < data.length; k++) {
    const v = Number(values[k])
    data[k] = !Number.isFinite(v) || (cog.noData !== null && v === cog.noData) ? Number.NaN : v
  }
  return {
    nx: x1 - x0,
    ny: y1 - y0,
    west: cog.west + x0 * rx,
    east: cog.west + x1 * rx,
    north: cog.north - y0 * ry,
    south: cog.north - y1 * ry,
    data,
  }
}

/**
 * Colours the 256 × 256 pixels of the Web Mercator tile `box` (EPSG:3857 metres) from a grid in the
 * same metres: each pixel centre maps linearly to the grid (no reprojection); nearest keeps classes
 * pure, bilinear blends only cells that hold data. Null when no pixel has a colour.
 */
function renderMercatorPixels(
  grid: GridRaster,
  ramp: ColorRamp,
  how: 'nearest' | 'bilinear',
  box: [number, number, number, number],
  size = 256,
): Uint8Array | null {
  const { nx, ny, data } = grid
  const sx = nx / (grid.east - grid.west)
  const sy = ny / (grid.north - grid.south)
  const step = (box[2] - box[0]) / size
  const out = new Uint8Array(size * size * 4)
  let drawn = false
  for (let j = 0; j < size; j++) {
    const fy = (grid.north - (box[3] - (j + 0.5) * step)) * sy
    if (fy < 0 || fy >= ny) continue
    for (let i = 0; i < size; i++) {
      const fx = (box[0] + (i + 0.5) * step - grid.west) * sx
      if (fx < 0 || fx >= nx) continue
      const own = data[Math.floor(fy) * nx + Math.floor(fx)]!
      if (Number.isNaN(own)) continue
      const value = how === 'nearest' ? own : blend(grid, fx - 0.5, fy - 0.5)
      if (ramp.paint(value, out, (j * size + i) * 4)) drawn = true
    }
  }
  return drawn ? out : null
}

/** Bilinear value at fractional cell (fx, fy) from cell centres; neighbours outside or without data are left out. */
function blend({ nx, ny, data }: GridRaster, fx: number, fy: number): number {
  const i0 = Math.floor(fx)
  const j0 = Math.floor(fy)
  let sum = 0
  let weight = 0
  for (let dj = 0; dj < 2; dj++)
    for (let di = 0; di < 2; di++) {
      const i = i0 + di
      const j = j0 + dj
      if (i < 0 || j < 0 || i >= nx || j >= ny) continue
      const w = (di ? fx - i0 : 1 - (fx - i0)) * (dj ? fy - j0 : 1 - (fy - j0))
      const v = data[j * nx + i]!
      if (w === 0 || Number.isNaN(v)) continue
      sum += v * w
      weight += w
    }
  return sum / weight
}

interface PointQuery {
  lon: number
  lat: number
}

const pointQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['lon', 'lat'],
  properties: {
    lon: { type: 'number', minimum: -180, maximum: 180, description: 'longitude (WGS 84)' },
    lat: { type: 'number', minimum: -90, maximum: 90, description: 'latitude (WGS 84)' },
    z: {
      type: 'integer',
      minimum: 0,
      maximum: 30,
      description: 'map zoom (ignored: the full resolution is read)',
    },
  },
} as const

/**
 * `GET /api/sources/<id>/tiles/{z}/{x}/{y}`: a PNG of the COG's band coloured by its legend, read
 * from the overview that fits the zoom by range requests (204 outside the raster or where nothing
 * is coloured); `GET /api/sources/<id>/info?lon=&lat=`: the full-resolution pixel value there and,
 * for a classes legend, its class label.
 */
export function cogRoutes(app: FastifyInstance, ctx: KindContext, source: CogSource): void {
  const base = `/api/sources/${source.id}`
  const band = source.band ?? 1
  let opened: Promise<OpenedCog> | null = null
  let ramp: ColorRamp | null = null
  // The structure is kept once read; a failed open is retried by the next request.
  const cog = (): Promise<OpenedCog> => {
    opened ??= openCog(ctx, source).catch((e: unknown) => {
      opened = null
      throw e
    })
    return opened
  }
  const legend = () => cogLegend(source)
  app.get<{ Params: TileParams }>(
    `${base}/tiles/:z/:x/:y`,
    { schema: { params: TILE_PARAMS_SCHEMA, querystring: noQuery }, logLevel: 'warn' },
    async (request, reply) => {
      const { z, x, y } = request.params
      const refused = refuseTileAddress(reply, source, z, x, y)
      if (refused) return refused
      try {
        const c = await cog()
        const box = c.crs === 'mercator' ? tileBbox3857(z, x, y) : tileBounds(z, x, y)
        ramp ??= colorRamp(legend(), (ref) => resolveColor(ref, themeConfig))
        const how = ramp.kind === 'classes' ? 'nearest' : 'bilinear'
        const grid = await readWindow(c, imageFor(c, (box[2] - box[0]) / 256), band, box)
        const pixels =
          grid &&
          (c.crs === 'mercator'
            ? renderMercatorPixels(grid, ramp, how, box)
            : renderTilePixels(grid, ramp, how, z, x, y))
        reply.header('Cache-Control', 'private, max-age=60')
        if (!pixels) return reply.code(204).send()
        return reply.type('image/png').send(encodePng(pixels))
      } catch (e) {
        return archiveError(request, reply, source, e)
      }
    },
  )
  app.get<{ Querystring: PointQuery }>(
    `${base}/info`,
    { schema: { querystring: pointQuery } },
    async (request, reply) => {
      const { lon, lat } = request.query
      try {
        const c = await cog()
        const image = c.images[0]!
        const [px, py] = c.crs === 'mercator' ? toMercator(lon, lat) : [lon, lat]
        const e = c.crs === 'mercator' ? 1e-4 : 1e-9
        const grid =
          px >= c.west && px < c.east && py > c.south && py <= c.north
            ? await readWindow(c, image, band, [px, py - e, px + e, py])
            : null
        const raw = grid?.data[0]
        const value = raw === undefined || Number.isNaN(raw) ? null : raw
        const l = legend()
        const label =
          value === null || l.type !== 'classes'
            ? undefined
            : l.classes.find((k) => k.value === Math.round(value))?.label
        const unit = l.type === 'gradient' ? l.unit : undefined
        const attributes: InfoFeature['attributes'] = {
          value,
          ...(label === undefined ? {} : { class: label }),
          ...(unit === undefined ? {} : { unit }),
        }
        // Our popup answer (as WMS GetFeatureInfo's): one feature, the pixel, when it holds a value.
        const answer: InfoAnswer & { value: number | null; label?: string } = {
          source: source.id,
          features: value === null ? [] : [{ layer: `band ${band}`, attributes }],
          value,
          ...(label === undefined ? {} : { label }),
        }
        return reply.header('Cache-Control', 'private, no-cache').send(answer)
      } catch (e) {
        return archiveError(request, reply, source, e)
      }
    },
  )
}
