import type { FastifyInstance } from 'fastify'
import type { DeliverySettings } from '../../shared/config'
import type { DeliveryEngine } from './DeliveryEngine'

/**
 * Timers of alert delivery: once the server is ready (GET /api/ready 200: after start-up and its
 * warm-up) and every `evaluateEveryMinutes` every rule is evaluated; every
 * `watchSeconds` the versions of the alert datasets are read (the store re-reads them from SQLite,
 * so an import by the CLI in another process shows) and a change is evaluated at once; each watch
 * also runs due sends, digests, reminders and retries. Answers the function that stops them.
 */
export function startDeliverySchedule(deps: {
  app: FastifyInstance
  delivery: DeliveryEngine
  settings: DeliverySettings
}): () => void {
  const { app, delivery, settings } = deps
  const engine = app.alertsEngine
  const versions = async () => {
    const parts: string[] = []
    for (const id of engine.datasetIds()) parts.push(`${id}:${(await app.store.info(id)).version}`)
    return parts.join(',')
  }
  const evaluate = (why: string) => {
    const failed = (err: unknown) => app.log.warn({ err, why }, 'alert evaluation failed')
    try {
      void Promise.resolve(engine.evaluate()).catch(failed)
    } catch (err) {
      failed(err)
    }
  }
  // The versions seen last (the baseline is read at start); a change is evaluated at once.
  let seen: string | undefined
  const watchVersions = async () => {
    const now = await versions()
    if (seen !== undefined && now !== seen) evaluate('datasets changed')
    seen = now
  }
  const watchFailed = (err: unknown) => app.log.warn({ err }, 'alert datasets could not be read')
  watchVersions().catch(watchFailed)
  // The first evaluation (the baseline after a start) runs once the server is ready — after
  // start-up and the warm-up that follows listen (main.ts), not competing with them for the thread.
  let first: NodeJS.Timeout | undefined
  let stopped = false
  void app.readiness.whenReady().then(() => {
    if (stopped) return
    first = setTimeout(() => evaluate('start'), 0)
    first.unref()
  })
  const watch = setInterval(
    () => {
      watchVersions().catch(watchFailed)
      void delivery.tick()
    },
    (settings.watchSeconds ?? 10) * 1000,
  )
  const scheduled = setInterval(() => evaluate('schedule'), (settings.evaluateEveryMinutes ?? 5) * 60_000)
  watch.unref()
  scheduled.unref()
  return () => {
    stopped = true
    clearTimeout(first)
    clearInterval(watch)
    clearInterval(scheduled)
  }
}
