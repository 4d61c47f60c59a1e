/** What the Authorization header holds: no header, a Bearer token, or something else (malformed). */
export type AuthorizationHeader = { kind: 'none' } | { kind: 'bearer'; token: string } | { kind: 'malformed' }

/** The one Bearer parser of the server: `Authorization: Bearer <token>` (scheme case-insensitive). */
export function parseAuthorization(header: string | undefined): AuthorizationHeader {
  if (header === undefined) return { kind: 'none' }
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1]
  return token ? { kind: 'bearer', token } : { kind: 'malformed' }
}

/** A cookie's value from the Cookie header (percent-decoded when it decodes), or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null
  for (const part of header.split(';')) {
    const i = part.indexOf('=')
    if (i > 0 && part.slice(0, i).trim() === name) {
      const v = part.slice(i + 1).trim()
      try {
        return decodeURIComponent(v)
      } catch {
        return v
      }
    }
  }
  return null
}
