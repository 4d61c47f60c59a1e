import type { FastifyReply } from 'fastify'
import { badRequest, notFound } from '../http/httpErrors'
import { isValidTile } from '../tiles/tileMath'

/**
 * The one check of a proxied tile's address, for every source kind: x or y beyond the zoom's grid
 * is a 400 naming it; a zoom outside the source's range is a 404. Answers the refusal sent, or
 * null when the tile may be fetched.
 */
export function refuseTileAddress(
  reply: FastifyReply,
  source: { id: string; minzoom: number; maxzoom: number },
  z: number,
  x: number,
  y: number,
): FastifyReply | null {
  if (!isValidTile(z, x, y)) {
    const which = x >= 2 ** z ? 'x' : 'y'
    return badRequest(reply, which, `${which} must be below ${2 ** z} at zoom ${z}`)
  }
  if (z < source.minzoom || z > source.maxzoom) {
    return notFound(reply, `${source.id} has tiles for zooms ${source.minzoom}-${source.maxzoom} only`)
  }
  return null
}
