import type { SeriesPoint } from '../server/store/Store'
import type { DemoContext } from './context'
import { round } from './prng'
import { HOUR, iso } from './time'

/**
 * The hourly PSPS risk score for 5 days from the reference day's midnight: a diurnal cycle with
 * the event peaking the afternoon of the next event, crossing 0.8 upwards and back down (and a
 * smaller second crossing the day after).
 */
export function riskSeries(ctx: DemoContext, dayStart: number): SeriesPoint[] {
  const rng = ctx.rng('risk-series')
  const out: SeriesPoint[] = []
  const peak1 = (ctx.nextEvent - dayStart) / HOUR + 1
  const peak2 = peak1 + 24
  for (let h = 0; h < 5 * 24; h++) {
    const diurnal = 0.18 * Math.sin(((h % 24) - 9) * (Math.PI / 12))
    const event = 0.55 * Math.exp(-(((h - peak1) / 4.5) ** 2)) + 0.38 * Math.exp(-(((h - peak2) / 3.5) ** 2))
    const v = 0.3 + diurnal + event + rng.normal(0, 0.015)
    out.push({ t: iso(dayStart + h * HOUR), value: round(Math.min(1, Math.max(0, v)), 3) })
  }
  return out
}
