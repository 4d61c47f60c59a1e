export const reloadFlagKey = 'emberline:screen-reload'

export interface ReloadEnv {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  reload(): void
  log(message: string, error: unknown): void
}

/**
 * Loads a screen module; if that fails, reloads the page once (a new deployment replaced the
 * chunks). A second failure after the reload is only logged (spec §8): it resolves to null and
 * the caller shows nothing in the screen's place — no error page.
 */
export async function loadWithReloadOnce<T>(load: () => Promise<T>, env: ReloadEnv): Promise<T | null> {
  try {
    const module = await load()
    env.storage.removeItem(reloadFlagKey)
    return module
  } catch (error) {
    if (env.storage.getItem(reloadFlagKey) === null) {
      env.storage.setItem(reloadFlagKey, String(Date.now()))
      env.reload()
      return new Promise<T>(() => {}) // the page is going away
    }
    env.storage.removeItem(reloadFlagKey)
    env.log('Screen failed to load after a reload', error)
    return null
  }
}

/** The browser's environment for loadWithReloadOnce. */
export function browserReloadEnv(): ReloadEnv {
  return {
    storage: sessionStorage,
    reload: () => window.location.reload(),
    log: (message, error) => console.error(message, error),
  }
}
