const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/i

/**
 * True for a loopback `host[:port]` (localhost, 127.x.x.x, [::1]), lower or upper case: the only
 * hosts whose own origin links (reset links, OGC links) may be built from without
 * EMBERLINE_PUBLIC_URL or EMBERLINE_ALLOWED_HOSTS.
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host)
}
