import type { FastifyInstance } from 'fastify'
import type { DeliverySettings } from '../../shared/config'
import type { DeliveryEngine } from './DeliveryEngine'

/**
 * Timers of alert delivery: once right after start-up and every `evaluateEveryMinutes` every rule
 * is evaluated; every
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
  // The first evaluation (the baseline after a start) runs just after start-up, not during it.
  const first = setTimeout(() => evaluate('start'), 0)
  first.unref()
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
    clearTimeout(first)
    clearInterval(watch)
    clearInterval(scheduled)
  }
}
