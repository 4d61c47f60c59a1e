import { describe, expect, it } from 'vitest'
import { tileUrl } from './tileUrl'
import { allowedHost, fillEnv, MissingVariable } from './upstreamUrl'
import type { WmsSource, XyzSource } from '../../shared/config'

describe('fillEnv', () => {
  it('URL-encodes a value inside a URL, and takes a URL that is one placeholder as the variable says', () => {
    const env = { KEY: 'a b/c', WMS_URL: 'http://127.0.0.1:8080/wms?map=x' }
    expect(fillEnv('https://t.example/${KEY}/{z}', env, true)).toBe('https://t.example/a%20b%2Fc/{z}')
    expect(fillEnv('${WMS_URL}', env, true)).toBe('http://127.0.0.1:8080/wms?map=x')
    expect(() => fillEnv('${UNSET_URL}', env, true)).toThrow(MissingVariable)
  })

  it('reaches the host of a whole-placeholder url (xyz template and wms GetMap)', async () => {
    const env = { XYZ_URL: 'http://tiles.example:81/t/{z}/{x}/{y}.png', WMS_URL: 'http://wms.example:82/wms' }
    const xyz = { id: 'x', type: 'xyz', url: '${XYZ_URL}' } as XyzSource
    const wms = { id: 'w', type: 'wms', url: '${WMS_URL}', layers: 'zones' } as WmsSource
    expect(allowedHost(xyz, env)).toBe('tiles.example:81')
    expect((await tileUrl(xyz, 3, 1, 2, env)).href).toBe('http://tiles.example:81/t/3/1/2.png')
    const getMap = await tileUrl(wms, 3, 1, 2, env)
    expect(getMap.host).toBe('wms.example:82')
    expect(getMap.searchParams.get('LAYERS')).toBe('zones')
  })
})
