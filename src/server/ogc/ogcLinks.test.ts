import { describe, expect, it } from 'vitest'
import { linkBase, linkSettings } from './ogcLinks'

describe('linkBase', () => {
  it('is EMBERLINE_PUBLIC_URL (without its trailing slash) whatever the request says', () => {
    const s = linkSettings({ EMBERLINE_PUBLIC_URL: 'https://wildfire.example/', HOST: '0.0.0.0' })
    expect(linkBase('http', 'evil.example', s)).toBe('https://wildfire.example')
    expect(linkBase('http', 'localhost:8080', s)).toBe('https://wildfire.example')
  })

  it("without it, the request's origin only for loopback or allowed hosts, else the listen address", () => {
    const s = linkSettings({
      EMBERLINE_ALLOWED_HOSTS: 'Maps.Example, gis.example:8443',
      HOST: '10.1.2.3',
      PORT: '9000',
    })
    expect(linkBase('http', 'localhost:8080', s)).toBe('http://localhost:8080')
    expect(linkBase('http', '127.0.0.1', s)).toBe('http://127.0.0.1')
    expect(linkBase('https', '[::1]:8443', s)).toBe('https://[::1]:8443')
    expect(linkBase('https', 'MAPS.example', s)).toBe('https://maps.example')
    expect(linkBase('https', 'gis.example:8443', s)).toBe('https://gis.example:8443')
    for (const forged of [
      'evil.example',
      'gis.example',
      'maps.example:1',
      '127.0.0.1.evil.example',
      'localhost.evil',
    ])
      expect(linkBase('http', forged, s), forged).toBe('http://10.1.2.3:9000')
  })

  it('falls back to relative links when the server listens on every address', () => {
    for (const HOST of ['0.0.0.0', '::'])
      expect(linkBase('http', 'evil.example', linkSettings({ HOST }))).toBe('')
    expect(linkBase('http', 'evil.example', linkSettings({ HOST: 'fd00::5', PORT: '80' }))).toBe(
      'http://[fd00::5]:80',
    )
    expect(linkBase('http', 'evil.example', linkSettings({}))).toBe('http://127.0.0.1:8080')
  })
})
