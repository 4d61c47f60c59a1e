import { describe, expect, it } from 'vitest'
import type { GeometryKind } from '../store/catalog'
import { encodeGeometry, type Parts } from '../store/geometryCodec'
import { featureJson } from './featureJson'
import { featureText } from './featureText'

const cases: [GeometryKind, Parts][] = [
  ['point', [[[[-106.5, 35.1]]]]],
  ['point', [[[[-106.5, 35.1]]], [[[-105, 34.25]]]]],
  [
    'line',
    [
      [
        [
          [-106, 35],
          [-105.5, 35.25],
          [-105, 35.5],
        ],
      ],
    ],
  ],
  [
    'line',
    [
      [
        [
          [-106, 35],
          [-105, 35.5],
        ],
      ],
      [
        [
          [-104, 34],
          [-103.125, 34.1],
        ],
      ],
    ],
  ],
  [
    'polygon',
    [
      [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
        [
          [0.2, 0.2],
          [0.4, 0.2],
          [0.4, 0.4],
          [0.2, 0.2],
        ],
      ],
    ],
  ],
  [
    'polygon',
    [
      [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
      [
        [
          [2, 2],
          [3, 2],
          [3, 3],
          [2, 2],
        ],
      ],
    ],
  ],
  ['point', [[[[-0, 1e-7]]]]],
]

describe('featureText', () => {
  it.each(cases)('writes the same GeoJSON as featureJson (%s)', (kind, parts) => {
    const { blob } = encodeGeometry(parts, kind)
    // An unaligned copy too: blobs from SQLite need not start on an 8-byte boundary.
    const unaligned = new Uint8Array(blob.length + 1).subarray(1)
    unaligned.set(blob)
    for (const geom of [blob, unaligned]) {
      const row = { id: 7, geom, properties: { name: 'a "b"', n: 1.5, none: null } }
      expect(JSON.parse(featureText(row, kind))).toEqual(JSON.parse(JSON.stringify(featureJson(row, kind))))
    }
  })
})
