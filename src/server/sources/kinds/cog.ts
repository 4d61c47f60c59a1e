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
import { archiveError, fetchFor, filledUrl, type KindContext } from './archive'
import { refuseTileAddress } from '../tileAddress'

/** EPSG codes of longitude/latitude systems read as they are (as our own GeoTIFF grids). */
const GEOGRAPHIC = new Set([4326, 4269, 4258, 4283])

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

/** An opened COG: its full-resolution image, its overviews and their geographic extent. */
interface OpenedCog {
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

async function openCog(ctx: KindContext, source: CogSource): Promise<OpenedCog> {
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
  const keys = (first.getGeoKeys() ?? {}) as Record<string, unknown>
  const epsg = Number(keys.GeographicTypeGeoKey ?? keys.ProjectedCSTypeGeoKey ?? 0)
  if (keys.GTModelTypeGeoKey !== 2 || (epsg !== 0 && !GEOGRAPHIC.has(epsg))) {
    throw new UpstreamFailure(
      502,
      `the GeoTIFF is not in longitude/latitude degrees (EPSG ${epsg || 'unknown'})`,
    )
  }
  // Masks (NewSubfileType bit 4) are not values; overviews (bit 1) share the full image's extent.
  const images = all.filter((im) => (Number(im.fileDirectory.NewSubfileType ?? 0) & 4) === 0)
  const [west, south, east, north] = first.getBoundingBox() as [number, number, number, number]
  return { images, west, south, east, north, noData: first.getGDALNoData() }
}

/** The coarsest image with at least one pixel per tile pixel (the full image when none is that fine). */
function imageFor(cog: OpenedCog, degreesPerPixel: number): GeoTIFFImage {
  let best = cog.images[0]!
  for (const im of cog.images) {
    const res = (cog.east - cog.west) / im.getWidth()
    const bestRes = (cog.east - cog.west) / best.getWidth()
    if (res <= degreesPerPixel && res > bestRes) best = im
  }
  return best
}

/** The window of an image covering [w, s, e, n], read as a grid (no-data and non-finite values as NaN). */
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
        const box = tileBounds(z, x, y)
        ramp ??= colorRamp(legend(), (ref) => resolveColor(ref, themeConfig))
        const grid = await readWindow(c, imageFor(c, (box[2] - box[0]) / 256), band, box)
        const pixels =
          grid && renderTilePixels(grid, ramp, ramp.kind === 'classes' ? 'nearest' : 'bilinear', z, x, y)
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
        const e = 1e-9
        const grid =
          lon >= c.west && lon < c.east && lat > c.south && lat <= c.north
            ? await readWindow(c, image, band, [lon, lat - e, lon + e, lat])
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
