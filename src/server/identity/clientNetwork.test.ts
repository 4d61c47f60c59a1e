import { describe, expect, it } from 'vitest'
import { clientNetwork } from './clientNetwork'

describe('clientNetwork', () => {
  it('keeps an IPv4 address, and the IPv4 address of an IPv4-mapped IPv6 one', () => {
    expect(clientNetwork('203.0.113.9')).toBe('203.0.113.9')
    expect(clientNetwork('::ffff:203.0.113.9')).toBe('203.0.113.9')
  })

  it('counts an IPv6 address as its /64, however it is written', () => {
    const net = '2001:db8:1:2::/64'
    for (const ip of [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:ffff:1:2:3',
      '2001:DB8:1:2:0:0:0:9',
      '2001:db8:1:2::5%eth0',
    ])
      expect(clientNetwork(ip), ip).toBe(net)
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64')
    expect(clientNetwork('2001:db8:1:3::1')).not.toBe(net)
  })

  it('leaves anything else as given', () => {
    expect(clientNetwork('not an address')).toBe('not an address')
  })
})
