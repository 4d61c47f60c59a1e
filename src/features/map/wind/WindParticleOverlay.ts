import L from 'leaflet'
import { speedBucket, type WindField } from './windField'

export interface ParticleOptions {
  readonly count: number
  readonly maxSpeed: number
  readonly stepMph: number
  readonly maxMph: number
  /** Colour per 10 mph bucket, index 0 = 0 mph. */
  readonly colors: readonly string[]
  readonly pane: string
}

const MAX_AGE = 90
const STEP_PX = 2.5
/** Screen cell (px) of the velocity grid sampled once per view, so frames never touch map projection. */
const CELL_PX = 4

/** Our own animated wind particle layer: a canvas over the map, particles advected through the wind field. */
export class WindParticleOverlay extends L.Layer {
  private canvas: HTMLCanvasElement | null = null
  private frame = 0
  private running = false
  private xs: Float32Array
  private ys: Float32Array
  private ages: Uint16Array
  private gridU = new Float32Array(0)
  private gridV = new Float32Array(0)
  private gridCols = 0
  /** Frames drawn since added (read by the web benchmark). */
  frames = 0

  constructor(
    private readonly field: WindField,
    private readonly opts: ParticleOptions,
  ) {
    super({ pane: opts.pane })
    this.xs = new Float32Array(opts.count)
    this.ys = new Float32Array(opts.count)
    this.ages = new Uint16Array(opts.count)
  }

  onAdd(map: L.Map): this {
    const canvas = L.DomUtil.create('canvas', 'el-wind-particles leaflet-zoom-hide')
    canvas.dataset.particles = String(this.opts.count)
    this.getPane()?.appendChild(canvas)
    this.canvas = canvas
    map.on('movestart zoomstart', this.pause, this)
    map.on('moveend zoomend resize', this.reset, this)
    this.reset()
    return this
  }

  onRemove(map: L.Map): this {
    this.pause()
    map.off('movestart zoomstart', this.pause, this)
    map.off('moveend zoomend resize', this.reset, this)
    this.canvas?.remove()
    this.canvas = null
    return this
  }

  setOpacity(opacity: number): void {
    if (this.canvas) this.canvas.style.opacity = String(opacity)
  }

  private pause(): void {
    this.running = false
    cancelAnimationFrame(this.frame)
    const ctx = this.canvas?.getContext('2d')
    if (ctx && this.canvas) ctx.clearRect(0, 0, this.canvas.width, this.canvas.height)
  }

  private reset(): void {
    const map = this._map
    const canvas = this.canvas
    if (!map || !canvas) return
    this.pause()
    const size = map.getSize()
    canvas.width = size.x
    canvas.height = size.y
    L.DomUtil.setPosition(canvas, map.containerPointToLayerPoint([0, 0]))
    this.sampleGrid(map, size)
    for (let i = 0; i < this.opts.count; i++) this.respawn(i, size, true)
    this.running = true
    this.frame = requestAnimationFrame(() => this.tick())
  }

  /** Wind at the centre of every CELL_PX screen cell of the current view (NaN outside the field). */
  private sampleGrid(map: L.Map, size: L.Point): void {
    const cols = Math.ceil(size.x / CELL_PX)
    const rows = Math.ceil(size.y / CELL_PX)
    this.gridCols = cols
    this.gridU = new Float32Array(cols * rows)
    this.gridV = new Float32Array(cols * rows)
    const p = L.point(0, 0)
    for (let j = 0; j < rows; j++) {
      for (let i = 0; i < cols; i++) {
        p.x = (i + 0.5) * CELL_PX
        p.y = (j + 0.5) * CELL_PX
        const ll = map.containerPointToLatLng(p)
        const uv = this.field.sample(ll.lng, ll.lat)
        this.gridU[j * cols + i] = uv ? uv[0] : NaN
        this.gridV[j * cols + i] = uv ? uv[1] : NaN
      }
    }
  }

  private respawn(i: number, size: L.Point, randomAge: boolean): void {
    this.xs[i] = Math.random() * size.x
    this.ys[i] = Math.random() * size.y
    this.ages[i] = randomAge ? Math.floor(Math.random() * MAX_AGE) : 0
  }

  private tick(): void {
    const ctx = this.canvas?.getContext('2d')
    if (!this.running || !ctx || !this.canvas) return
    const { width, height } = this.canvas
    const size = L.point(width, height)
    ctx.globalCompositeOperation = 'destination-in'
    ctx.fillStyle = 'rgba(0,0,0,0.92)'
    ctx.fillRect(0, 0, width, height)
    ctx.globalCompositeOperation = 'source-over'
    ctx.lineWidth = 1.2
    const buckets = this.opts.colors.map(() => new Path2D())
    for (let i = 0; i < this.opts.count; i++) {
      const x = this.xs[i] ?? 0
      const y = this.ys[i] ?? 0
      const cell = Math.floor(y / CELL_PX) * this.gridCols + Math.floor(x / CELL_PX)
      const u = this.gridU[cell] ?? NaN
      const v = this.gridV[cell] ?? NaN
      const age = (this.ages[i] ?? 0) + 1
      const outside = x < 0 || y < 0 || x >= width || y >= height
      if (outside || Number.isNaN(u) || Number.isNaN(v) || age > MAX_AGE) {
        this.respawn(i, size, false)
        continue
      }
      const speed = Math.hypot(u, v)
      const k =
        speed === 0 ? 0 : (Math.min(speed, this.opts.maxSpeed) / this.opts.maxSpeed) * (STEP_PX / speed)
      const nx = x + u * k
      const ny = y - v * k
      const path = buckets[speedBucket(speed, this.opts.stepMph, this.opts.maxMph)]
      path?.moveTo(x, y)
      path?.lineTo(nx, ny)
      this.xs[i] = nx
      this.ys[i] = ny
      this.ages[i] = age
    }
    buckets.forEach((path, b) => {
      ctx.strokeStyle = this.opts.colors[b] ?? '#ffffff'
      ctx.stroke(path)
    })
    this.frames++
    this.canvas.dataset.frames = String(this.frames)
    this.frame = requestAnimationFrame(() => this.tick())
  }
}
