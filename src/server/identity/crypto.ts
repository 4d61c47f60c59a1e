import {
  createHash,
  randomBytes,
  randomInt,
  randomUUID,
  scrypt,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto'

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 64 }

function scryptAsync(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key))),
  )
}

/** scrypt hash with a fresh per-member salt: `scrypt$N$r$p$<salt>$<hash>` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const { N, r, p, keyLength } = SCRYPT
  const key = await scryptAsync(password.normalize('NFKC'), salt, keyLength, {
    N,
    r,
    p,
    maxmem: 64 * 1024 * 1024,
  })
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

/** Constant-time check of a password against a stored hash; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [, n, r, p, saltText, hashText] = parts as [string, string, string, string, string, string]
  const expected = Buffer.from(hashText, 'base64url')
  if (expected.length === 0) return false
  const key = await scryptAsync(
    password.normalize('NFKC'),
    Buffer.from(saltText, 'base64url'),
    expected.length,
    {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: 64 * 1024 * 1024,
    },
  )
  return timingSafeEqual(key, expected)
}

let dummyHash: Promise<string> | null = null
/** Spends the same work as a real check, so unknown e-mails answer as slowly as wrong passwords. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'))
  await verifyPassword(password, await dummyHash)
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

/** Compares two strings without leaking where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest()
  const y = createHash('sha256').update(b).digest()
  return timingSafeEqual(x, y) && a.length === b.length
}

/** An unguessable opaque token (256 bits). */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

/** Stytch-style identifiers, e.g. `member-test-<uuid>`. */
export function newId(kind: string, live = false): string {
  return `${kind}-${live ? 'live' : 'test'}-${randomUUID()}`
}

/** A numeric one-time code with leading zeros, drawn uniformly. */
export function newNumericCode(digits: number): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0')
}

/** Salted hash of a short code (the salt keeps equal codes from sharing a hash). */
export function hashCode(code: string, salt: string): string {
  return sha256(`${salt}:${code}`)
}

/** PKCE (S256): base64url(sha256(verifier)) without padding. */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url')
}
