import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkOnline } from '../../scripts/config/online'
import { formatProblem } from '../../scripts/config/problem'
import { loadYaml } from '../../scripts/config/yamlSource'
import type { Source } from '../../src/generated/types'
import { startMapServer, type TestMapServer } from '../support/mapserver'

// validate-config --online against the real MapServer and a closed port: unknown layer names, a
// projection the server does not offer and an unreachable host, each at its source's YAML line.

let ms: TestMapServer
let closedPort = 0
let dir = ''
beforeAll(async () => {
  ms = await startMapServer()
  const gone = http.createServer()
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve))
  closedPort = (gone.address() as AddressInfo).port
  await new Promise<void>((resolve) => gone.close(() => resolve()))
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h3-online-'))
}, 30_000)
afterAll(async () => {
  await ms?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const common = 'attribution: Test\n    minzoom: 0\n    maxzoom: 18\n    allowPrivateNetwork: true'

describe('validate-config --online', () => {
  it('reports unknown WMS layers and unreachable hosts at the source line; a good source passes', async () => {
    const file = path.join(dir, 'layers.yaml')
    fs.writeFileSync(
      file,
      `sources:
  - id: zones_ok
    type: wms
    url: ${ms.wmsUrl}
    layers: zones
    ${common}
  - id: zones_typo
    type: wms
    url: ${ms.wmsUrl}
    layers: zones,zonez
    ${common}
  - id: zones_gone
    type: wms
    url: http://127.0.0.1:${closedPort}/wms
    layers: zones
    ${common}
  - id: basemap
    type: xyz
    url: http://127.0.0.1:${closedPort}/{z}/{x}/{y}.png
    ${common}
`,
    )
    const loaded = loadYaml(file)
    if (!loaded.ok) throw new Error('fixture YAML does not load')
    const sources = (loaded.source.data as { sources: Source[] }).sources
    const lines = (await checkOnline(loaded.source, sources)).map((p) => formatProblem(p, dir))
    expect(lines).toEqual([
      "layers.yaml:13:13  sources[1].layers  zones_typo: WMS layer 'zonez' is not offered by the server (layers: emberline_test, zones)",
      expect.stringMatching(
        /^layers\.yaml:20:10 {2}sources\[2\]\.url {2}zones_gone: unreachable or unreadable: cannot reach upstream 127\.0\.0\.1:\d+/,
      ),
    ])
  })
})
