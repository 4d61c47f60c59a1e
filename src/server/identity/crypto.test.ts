import { describe, expect, it } from 'vitest'
import { hashCode, hashPassword, newNumericCode, pkceChallenge, safeEqual, verifyPassword } from './crypto'

describe('password hashing', () => {
  it('uses scrypt with a per-hash salt and verifies only the right password', async () => {
    const a = await hashPassword('correct horse battery staple')
    const b = await hashPassword('correct horse battery staple')
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/)
    expect(a).not.toBe(b)
    expect(await verifyPassword('correct horse battery staple', a)).toBe(true)
    expect(await verifyPassword('correct horse battery stapler', a)).toBe(false)
  })

  it('treats malformed hashes as a mismatch', async () => {
    expect(await verifyPassword('x', 'plain')).toBe(false)
    expect(await verifyPassword('x', 'scrypt$16384$8$1$salt$')).toBe(false)
  })
})

describe('codes and comparisons', () => {
  it('draws numeric codes of the configured length, with leading zeros', () => {
    const codes = Array.from({ length: 200 }, () => newNumericCode(6))
    expect(codes.every((c) => /^\d{6}$/.test(c))).toBe(true)
    expect(new Set(codes).size).toBeGreaterThan(190)
  })

  it('salts code hashes', () => {
    expect(hashCode('123456', 'a')).not.toBe(hashCode('123456', 'b'))
  })

  it('compares strings of any length', () => {
    expect(safeEqual('abc', 'abc')).toBe(true)
    expect(safeEqual('abc', 'abd')).toBe(false)
    expect(safeEqual('abc', 'abcd')).toBe(false)
  })

  it('computes the S256 PKCE challenge the SDK expects (RFC 7636 example)', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    )
  })
})
