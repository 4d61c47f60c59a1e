// Vite config helper (build only): a warning is a failed build, not a line scrolled past.
import { createLogger, type Logger } from 'vite'

/**
 * Vite's logger with `warn` and `warnOnce` turned into errors. Every warning a build prints goes
 * through it — Rollup's (a re-export cycle, `eval`, a misplaced annotation…, forwarded by
 * Vite's `onLog`) and Vite's own (chunk size, HTML, CSS) — so `vite build` exits non-zero naming
 * the warning instead of shipping what it warns about. Only for `command === 'build'`: the dev
 * server's warnings (a malformed request URL) must not stop it.
 */
export function strictBuildLogger(base: Logger = createLogger()): Logger {
  const fail = (msg: string): never => {
    throw new Error(`vite build fails on warnings (vite.config.ts, strictBuildLogger):\n${msg.trim()}`)
  }
  return { ...base, warn: fail, warnOnce: fail }
}
