import L from 'leaflet'
import { ParticleSim, type ParticleSettings, type VelocityGrid } from './particleSim'
import type { ParticleWorkerMessage, ParticleWorkerReport } from './particleWorker'
import type { WindField } from './windField'

export interface ParticleOptions extends ParticleSettings {
  readonly pane: string
}

/** Screen cell (px) of the velocity grid sampled once per view, so frames never touch map projection. */
const CELL_PX = 4

/** Draws frames: in a worker on an OffscreenCanvas where the browser can, else on this thread. */
interface ParticleDriver {
  view(grid: VelocityGrid): void
  pause(): void
  stop(): void
}

function workerDriver(canvas: HTMLCanvasElement, settings: ParticleSettings, onFrames: (n: number) => void) {
  const offscreen = canvas.transferControlToOffscreen()
  const worker = new Worker(new URL('./particleWorker.ts', import.meta.url), { type: 'module' })
  const send = (message: ParticleWorkerMessage, transfer: Transferable[] = []) =>
    worker.postMessage(message, transfer)
  worker.addEventListener('message', (event: MessageEvent<ParticleWorkerReport>) =>
    onFrames(event.data.frames),
  )
  worker.addEventListener('error', (event) => console.warn('Wind particle worker failed', event.message))
  send({ type: 'init', canvas: offscreen, settings }, [offscreen])
  return {
    view: (grid: VelocityGrid) => send({ type: 'view', grid }, [grid.u.buffer, grid.v.buffer]),
    pause: () => send({ type: 'pause' }),
    stop: () => worker.terminate(),
  } satisfies ParticleDriver
}

function inlineDriver(canvas: HTMLCanvasElement, settings: ParticleSettings, onFrames: (n: number) => void) {
  const sim = new ParticleSim(settings)
  const ctx = canvas.getContext('2d')
  let frame = 0
  let frames = 0
  const tick = () => {
    if (!ctx) return
    sim.frame(ctx)
    onFrames(++frames)
    frame = requestAnimationFrame(tick)
  }
  const pause = () => {
    cancelAnimationFrame(frame)
    if (ctx) sim.clear(ctx)
  }
  return {
    view: (grid: VelocityGrid) => {
      pause()
      canvas.width = grid.width
      canvas.height = grid.height
      sim.setGrid(grid)
      frame = requestAnimationFrame(tick)
    },
    pause,
    stop: pause,
  } satisfies ParticleDriver
}

/**
 * Our own animated wind particle layer: a canvas over the map, particles advected through the wind
 * field. The main thread only samples the field into a screen-space velocity grid when the view
 * changes; the frames are drawn by a worker (OffscreenCanvas), so the animation neither blocks the
 * page nor makes the page commit a new frame for every particle step.
 */
export class WindParticleOverlay extends L.Layer {
  private canvas: HTMLCanvasElement | null = null
  private driver: ParticleDriver | null = null

  constructor(
    private readonly field: WindField,
    private readonly opts: ParticleOptions,
  ) {
    super({ pane: opts.pane })
  }

  onAdd(map: L.Map): this {
    const canvas = L.DomUtil.create('canvas', 'el-wind-particles leaflet-zoom-hide')
    canvas.dataset.particles = String(this.opts.count)
    canvas.dataset.frames = '0'
    this.getPane()?.appendChild(canvas)
    this.canvas = canvas
    const onFrames = (n: number) => {
      canvas.dataset.frames = String(n)
    }
    const settings: ParticleSettings = {
      count: this.opts.count,
      maxSpeed: this.opts.maxSpeed,
      stepMph: this.opts.stepMph,
      maxMph: this.opts.maxMph,
      colors: this.opts.colors,
    }
    const offscreen = typeof canvas.transferControlToOffscreen === 'function' && typeof Worker === 'function'
    canvas.dataset.renderer = offscreen ? 'worker' : 'inline'
    this.driver = offscreen
      ? workerDriver(canvas, settings, onFrames)
      : inlineDriver(canvas, settings, onFrames)
    map.on('movestart zoomstart', this.pause, this)
    map.on('moveend zoomend resize', this.reset, this)
    this.reset()
    return this
  }

  onRemove(map: L.Map): this {
    map.off('movestart zoomstart', this.pause, this)
    map.off('moveend zoomend resize', this.reset, this)
    this.driver?.stop()
    this.driver = null
    this.canvas?.remove()
    this.canvas = null
    return this
  }

  setOpacity(opacity: number): void {
    if (this.canvas) this.canvas.style.opacity = String(opacity)
  }

  private pause(): void {
    this.driver?.pause()
  }

  private reset(): void {
    const map = this._map
    const canvas = this.canvas
    if (!map || !canvas || !this.driver) return
    const size = map.getSize()
    L.DomUtil.setPosition(canvas, map.containerPointToLayerPoint([0, 0]))
    this.driver.view(this.sampleGrid(map, size))
  }

  /** Wind at the centre of every CELL_PX screen cell of the current view (NaN outside the field). */
  private sampleGrid(map: L.Map, size: L.Point): VelocityGrid {
    const cols = Math.ceil(size.x / CELL_PX)
    const rows = Math.ceil(size.y / CELL_PX)
    const u = new Float32Array(cols * rows)
    const v = new Float32Array(cols * rows)
    const p = L.point(0, 0)
    for (let j = 0; j < rows; j++) {
      for (let i = 0; i < cols; i++) {
        p.x = (i + 0.5) * CELL_PX
        p.y = (j + 0.5) * CELL_PX
        const ll = map.containerPointToLatLng(p)
        const uv = this.field.sample(ll.lng, ll.lat)
        u[j * cols + i] = uv ? uv[0] : NaN
        v[j * cols + i] = uv ? uv[1] : NaN
      }
    }
    return { u, v, cols, cellPx: CELL_PX, width: size.x, height: size.y }
  }
}
