/** IANA zone for a time-zone-display preference value ('local' = the device's zone). */
export function displayTimeZone(preference: string | undefined): string | undefined {
  return !preference || preference === 'local' ? undefined : preference
}

/** Expiry as a date and time with its zone name, e.g. 'Mar 6, 2025, 2:30 PM MST'. */
export function formatExpiry(expiresAt: number, locale: string, timeZone: string | undefined): string {
  return (
    new Intl.DateTimeFormat(locale, {
      timeZone,
      dateStyle: 'medium',
      timeStyle: 'short',
    }).format(new Date(expiresAt)) + ` ${zoneName(expiresAt, locale, timeZone)}`
  )
}

function zoneName(at: number, locale: string, timeZone: string | undefined): string {
  const part = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' })
    .formatToParts(new Date(at))
    .find((p) => p.type === 'timeZoneName')
  return part?.value ?? ''
}

/** Time left as 'N h M min' or 'M min' (never negative). */
export function formatRemaining(expiresAt: number, now: number): string {
  const minutes = Math.max(0, Math.floor((expiresAt - now) / 60_000))
  const hours = Math.floor(minutes / 60)
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`
}
