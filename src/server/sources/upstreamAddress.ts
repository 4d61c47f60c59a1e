import dns from 'node:dns'
import net from 'node:net'

/** Address ranges a source may reach only with `allowPrivateNetwork: true` (the utility's own network). */
const V4_RANGES: [string, number, string][] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
]
const V6_RANGES: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b::', 96, 'NAT64 (maps to IPv4)'],
  ['64:ff9b:1::', 48, 'NAT64 (maps to IPv4)'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
]

function rangeList(ranges: [string, number, string][], type: 'ipv4' | 'ipv6'): [net.BlockList, string][] {
  return ranges.map(([address, prefix, why]) => {
    const list = new net.BlockList()
    list.addSubnet(address, prefix, type)
    return [list, why]
  })
}
const V4 = rangeList(V4_RANGES, 'ipv4')
const V6 = rangeList(V6_RANGES, 'ipv6')

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address (::ffff:a.b.c.d, ::ffff:7f00:1). */
function embeddedV4(address: string): string | null {
  const a = address
    .toLowerCase()
    .replace(/^(?:0{1,4}:){5}ffff:/, '::ffff:')
    .replace(/^(?:0{1,4}:){6}/, '::')
  const dotted = /^::(?:ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a)
  if (dotted) return dotted[1]!
  const hex = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a)
  if (!hex) return null
  const hi = parseInt(hex[1]!, 16)
  const lo = parseInt(hex[2]!, 16)
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
}

/** Why an IP address is refused without allowPrivateNetwork (private, loopback, …), or null. */
export function refusedAddressReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const family = net.isIP(bare)
  if (family === 4) return V4.find(([list]) => list.check(bare, 'ipv4'))?.[1] ?? null
  if (family !== 6) return 'not an IP address'
  const v4 = embeddedV4(bare)
  if (v4 !== null && net.isIP(v4) === 4) {
    const why = refusedAddressReason(v4)
    return why === null ? null : `IPv4-mapped ${why}`
  }
  return V6.find(([list]) => list.check(bare, 'ipv6'))?.[1] ?? null
}

/** An upstream the proxy refuses to reach (host not allowed, private address): answered 502. */
export class RefusedUpstream extends Error {}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void

/**
 * A `lookup` for node:http that resolves every address of the host and refuses the connection
 * when any of them is private, loopback or link-local (checked at connect time, so a DNS answer
 * that changes between check and use cannot slip through).
 */
export function guardedLookup(allowPrivateNetwork: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, [])
      if (!allowPrivateNetwork) {
        for (const a of addresses) {
          const why = refusedAddressReason(a.address)
          if (why !== null) {
            return callback(
              new RefusedUpstream(
                `${hostname} resolves to ${a.address} (${why}); not allowed for this source`,
              ),
              [],
            )
          }
        }
      }
      const usable = options.family ? addresses.filter((a) => a.family === options.family) : addresses
      if (usable.length === 0) return callback(new Error(`${hostname} has no usable address`), [])
      if (options.all) return callback(null, usable)
      callback(null, usable[0]!.address, usable[0]!.family)
    })
  }
}
