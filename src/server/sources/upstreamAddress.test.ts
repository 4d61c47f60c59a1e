import { describe, expect, it } from 'vitest'
import { refusedAddressReason } from './upstreamAddress'

describe('refusedAddressReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'this network'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'unique local (private)'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:a00:1', 'IPv4-mapped private'],
    ['0:0:0:0:0:ffff:c0a8:101', 'IPv4-mapped private'],
    ['64:ff9b::a00:1', 'NAT64 (maps to IPv4)'],
  ])('refuses %s (%s)', (address, why) => {
    expect(refusedAddressReason(address)).toBe(why)
  })

  it.each(['8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700::1111', '::ffff:808:808', '::ffff:8.8.4.4'])(
    'allows the public address %s',
    (address) => {
      expect(refusedAddressReason(address)).toBeNull()
    },
  )
})
