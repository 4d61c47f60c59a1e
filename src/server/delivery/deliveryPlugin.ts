import type { FastifyInstance } from 'fastify'
import { operationsConfig } from '../../shared/config'
import type { DeliveryEngine } from './DeliveryEngine'
import { deliveryLogRoutes } from './deliveryLogRoutes'
import { startDeliverySchedule } from './deliverySchedule'
import { subscriptionRoutes } from './subscriptionRoutes'

declare module 'fastify' {
  interface FastifyInstance {
    /** Alert delivery (null when config/operations.yaml has no `delivery`). */
    alertDelivery: DeliveryEngine | null
  }
}

export interface DeliveryPluginOptions {
  /** Run the evaluation schedule and the dataset watcher (default true). */
  schedule?: boolean
}

/**
 * Alert delivery: hooks `app.alertDelivery` onto every evaluation of `app.alertsEngine` (requests,
 * the schedule, imports seen by the watcher, feed updates), runs the schedule, and serves the
 * subscription and delivery-log routes.
 */
export async function deliveryPlugin(app: FastifyInstance, opts: DeliveryPluginOptions): Promise<void> {
  await app.register(subscriptionRoutes, { settings: operationsConfig.delivery })
  await app.register(deliveryLogRoutes)
  const delivery = app.alertDelivery
  if (!delivery) return
  const stopListening = app.alertsEngine.onEvaluated(async (evaluation) => {
    // Delivery is scheduled work: only the leader of the cluster records and sends (on SQLite the
    // one process leads); the others' evaluations (GET /api/alerts) only answer their requests.
    if (!app.leader.isLeader) return
    // Recorded before the evaluation resolves (sending is not waited for).
    await delivery.observe(evaluation).then(
      (changed) => {
        if (changed) void delivery.tick()
      },
      (err: unknown) => app.log.warn({ err }, 'alert delivery could not record an evaluation'),
    )
  })
  const settings = operationsConfig.delivery
  let stopSchedule = () => undefined as void
  if (opts.schedule !== false && settings) {
    app.addHook('onReady', async () => {
      stopSchedule = app.leader.whileLeader(() => {
        // Jobs a dead leader was sending go back to the queue whenever this server takes over
        // (not only on its first tick: the leadership can come back after another server led).
        void Promise.resolve(app.store.delivery.requeueInterrupted()).catch((err: unknown) =>
          app.log.warn({ err }, 'could not requeue interrupted alert deliveries'),
        )
        return startDeliverySchedule({ app, delivery, settings })
      })
    })
  }
  app.addHook('onClose', async () => {
    stopSchedule()
    stopListening()
  })
}
