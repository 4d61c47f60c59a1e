// Worker that animates the wind particles on an OffscreenCanvas (the map's main thread only sends
// a new velocity grid when the view changes). Frame counts go back to the page for the benchmark.
import { ParticleSim, type ParticleSettings, type VelocityGrid } from './particleSim'

export type ParticleWorkerMessage =
  | { readonly type: 'init'; readonly canvas: OffscreenCanvas; readonly settings: ParticleSettings }
  | { readonly type: 'view'; readonly grid: VelocityGrid }
  | { readonly type: 'pause' }

export interface ParticleWorkerReport {
  readonly type: 'frames'
  readonly frames: number
}

/** Frames between two reports to the page. */
const REPORT_EVERY = 10

let canvas: OffscreenCanvas | null = null
let ctx: OffscreenCanvasRenderingContext2D | null = null
let sim: ParticleSim | null = null
let frame = 0
let running = false
let frames = 0

function tick(): void {
  if (!running || !ctx || !sim) return
  sim.frame(ctx)
  frames++
  if (frames % REPORT_EVERY === 0) postMessage({ type: 'frames', frames } satisfies ParticleWorkerReport)
  frame = requestAnimationFrame(tick)
}

function pause(): void {
  running = false
  cancelAnimationFrame(frame)
  if (ctx && sim) sim.clear(ctx)
}

addEventListener('message', (event: MessageEvent<ParticleWorkerMessage>) => {
  const message = event.data
  switch (message.type) {
    case 'init':
      canvas = message.canvas
      ctx = canvas.getContext('2d')
      sim = new ParticleSim(message.settings)
      break
    case 'view':
      if (!canvas || !sim) return
      pause()
      canvas.width = message.grid.width
      canvas.height = message.grid.height
      sim.setGrid(message.grid)
      running = true
      frame = requestAnimationFrame(tick)
      break
    case 'pause':
      pause()
      break
  }
})
