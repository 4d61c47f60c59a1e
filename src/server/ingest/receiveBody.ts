import { createHash } from 'node:crypto'
import fs from 'node:fs'
import type { Readable } from 'node:stream'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'

/** A body longer than the limit (413), or shorter than its Content-Length (the client stopped). */
export class BodyRefused extends Error {
  constructor(
    readonly statusCode: 400 | 413,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Streams a request body into `file` (never whole in memory), counting and hashing it: past
 * `maxBytes` it stops with a 413; a body shorter than `declared` (its Content-Length) or cut off
 * by the client rejects, so no job is made of part of a file.
 */
export async function receiveBody(
  body: Readable,
  file: string,
  maxBytes: number,
  declared: number | null,
): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256')
  let bytes = 0
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length
      if (bytes > maxBytes)
        return done(
          new BodyRefused(413, `the body is larger than the ${maxBytes} bytes an ingestion request may send`),
        )
      hash.update(chunk)
      done(null, chunk)
    },
  })
  let aborted = false
  const onAborted = (): void => {
    aborted = true
  }
  body.once('aborted', onAborted)
  try {
    await pipeline(body, count, fs.createWriteStream(file))
  } catch (err) {
    if (err instanceof BodyRefused) throw err
    throw new BodyRefused(
      400,
      `the body was cut off after ${bytes} bytes (${err instanceof Error ? err.message : String(err)})`,
    )
  } finally {
    body.off('aborted', onAborted)
  }
  if (aborted || (declared !== null && bytes !== declared))
    throw new BodyRefused(
      400,
      `the body ended after ${bytes} of the ${declared ?? '?'} bytes its Content-Length announced`,
    )
  return { bytes, sha256: hash.digest('hex') }
}
