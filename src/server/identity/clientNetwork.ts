import { isIPv4, isIPv6 } from 'node:net'

/**
 * The network a client address stands for when counting requests per requester: an IPv4 address
 * itself, an IPv6 address's /64 (one subscriber's line or one host's SLAAC range usually holds a
 * whole /64, so counting single IPv6 addresses would give a stranger endless fresh ones). An
 * IPv4-mapped IPv6 address counts as its IPv4 address; anything else is used as given.
 */
export function clientNetwork(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)?.[1]
  if (mapped && isIPv4(mapped)) return mapped
  if (!isIPv6(ip)) return ip
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]?.split('::') ?? []
  const left = head ? head.split(':') : []
  const right = ip.includes('::') && tail ? tail.split(':') : []
  // An embedded IPv4 tail (a:b::1.2.3.4) never reaches the first four groups' values.
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}
