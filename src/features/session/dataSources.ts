type Init = () => void

const inits = new Set<Init>()
let started = false

/**
 * Registers a data source to initialise when a session starts (spec §4: wind vectors and smoke
 * after login). Registered after the session started, it runs at once. Returns an unregister.
 */
export function onSessionStart(init: Init): () => void {
  inits.add(init)
  if (started) runSafely(init)
  return () => inits.delete(init)
}

/** Called by the session machine on a new session. */
export function initDataSources(): void {
  started = true
  inits.forEach(runSafely)
}

/** Called when the session ends. */
export function resetDataSources(): void {
  started = false
}

function runSafely(init: Init): void {
  try {
    init()
  } catch (error) {
    // Spec §8: a failing data source is only logged; its layer stays unavailable.
    console.error('Data source failed to initialise', error)
  }
}
