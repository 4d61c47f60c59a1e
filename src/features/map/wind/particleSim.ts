import { speedBucket } from './windField'

/** What the particle drawing needs (the config values of appConfig.windParticles and the legend colours). */
export interface ParticleSettings {
  readonly count: number
  readonly maxSpeed: number
  readonly stepMph: number
  readonly maxMph: number
  /** Colour per speed bucket, index 0 = 0 mph. */
  readonly colors: readonly string[]
}

/** The wind (mph, u east / v north) at the centre of every `cellPx` screen cell of the view; NaN outside the field. */
export interface VelocityGrid {
  readonly u: Float32Array
  readonly v: Float32Array
  readonly cols: number
  readonly cellPx: number
  readonly width: number
  readonly height: number
}

/** The canvas calls a frame makes (CanvasRenderingContext2D and OffscreenCanvasRenderingContext2D both fit). */
export type ParticleContext = Pick<
  CanvasRenderingContext2D,
  | 'globalCompositeOperation'
  | 'fillStyle'
  | 'strokeStyle'
  | 'lineWidth'
  | 'fillRect'
  | 'clearRect'
  | 'beginPath'
  | 'moveTo'
  | 'lineTo'
  | 'stroke'
>

const MAX_AGE = 90
const STEP_PX = 2.5
/**
 * Trail fade per frame: 'destination-out' with this alpha keeps 92 % of the canvas (the same result
 * as 'destination-in' with 0.92, but Skia's raster path for it is several times faster).
 */
const FADE = 'rgba(0,0,0,0.08)'
const LINE_WIDTH = 1

/**
 * The particle state and one frame of drawing, shared by the worker and the main-thread fallback.
 * Typed arrays for positions, ages and per-frame segments; nothing is allocated per frame; one
 * composite fill fades the trails and one path per colour bucket draws the new segments.
 */
export class ParticleSim {
  private readonly xs: Float32Array
  private readonly ys: Float32Array
  private readonly ages: Uint16Array
  /** Segment ends of this frame (x0, y0, x1, y1 per particle) and particle indices grouped by bucket. */
  private readonly segments: Float32Array
  private readonly order: Uint32Array
  private readonly bucketOf: Uint8Array
  private readonly bucketCounts: Uint32Array
  private readonly bucketStarts: Uint32Array
  private readonly sorted: Uint32Array
  private readonly cursor: Uint32Array
  private grid: VelocityGrid | null = null

  constructor(
    private readonly settings: ParticleSettings,
    private readonly random: () => number = Math.random,
  ) {
    const n = settings.count
    this.xs = new Float32Array(n)
    this.ys = new Float32Array(n)
    this.ages = new Uint16Array(n)
    this.segments = new Float32Array(n * 4)
    this.order = new Uint32Array(n)
    this.bucketOf = new Uint8Array(n)
    this.bucketCounts = new Uint32Array(settings.colors.length)
    this.bucketStarts = new Uint32Array(settings.colors.length)
    this.sorted = new Uint32Array(n)
    this.cursor = new Uint32Array(settings.colors.length)
  }

  get count(): number {
    return this.settings.count
  }

  /** A new view: new velocity grid and every particle reseeded at a random place and age. */
  setGrid(grid: VelocityGrid): void {
    this.grid = grid
    for (let i = 0; i < this.settings.count; i++) this.respawn(i, true)
  }

  private respawn(i: number, randomAge: boolean): void {
    const grid = this.grid
    this.xs[i] = this.random() * (grid?.width ?? 0)
    this.ys[i] = this.random() * (grid?.height ?? 0)
    this.ages[i] = randomAge ? Math.floor(this.random() * MAX_AGE) : 0
  }

  /** Advances every particle one step and draws the frame; returns the number of segments drawn. */
  frame(ctx: ParticleContext): number {
    const grid = this.grid
    if (!grid) return 0
    const { width, height, cols, cellPx, u: gu, v: gv } = grid
    const { count, maxSpeed, stepMph, maxMph } = this.settings
    const buckets = this.bucketCounts.length
    this.bucketCounts.fill(0)
    let drawn = 0
    for (let i = 0; i < count; i++) {
      const x = this.xs[i] as number
      const y = this.ys[i] as number
      const age = (this.ages[i] as number) + 1
      if (x < 0 || y < 0 || x >= width || y >= height || age > MAX_AGE) {
        this.respawn(i, false)
        continue
      }
      const cell = ((y / cellPx) | 0) * cols + ((x / cellPx) | 0)
      const u = gu[cell] as number
      const v = gv[cell] as number
      if (u !== u || v !== v) {
        this.respawn(i, false)
        continue
      }
      const speed = Math.sqrt(u * u + v * v)
      const k = speed === 0 ? 0 : (Math.min(speed, maxSpeed) / maxSpeed) * (STEP_PX / speed)
      const nx = x + u * k
      const ny = y - v * k
      const s = i * 4
      this.segments[s] = x
      this.segments[s + 1] = y
      this.segments[s + 2] = nx
      this.segments[s + 3] = ny
      const b = Math.min(speedBucket(speed, stepMph, maxMph), buckets - 1)
      this.bucketOf[drawn] = b
      this.order[drawn] = i
      this.bucketCounts[b] = (this.bucketCounts[b] as number) + 1
      this.xs[i] = nx
      this.ys[i] = ny
      this.ages[i] = age
      drawn++
    }
    this.draw(ctx, width, height, drawn)
    return drawn
  }

  private draw(ctx: ParticleContext, width: number, height: number, drawn: number): void {
    ctx.globalCompositeOperation = 'destination-out'
    ctx.fillStyle = FADE
    ctx.fillRect(0, 0, width, height)
    ctx.globalCompositeOperation = 'source-over'
    ctx.lineWidth = LINE_WIDTH
    const buckets = this.bucketCounts.length
    for (let b = 0, start = 0; b < buckets; b++) {
      this.bucketStarts[b] = start
      start += this.bucketCounts[b] as number
    }
    const sorted = this.groupByBucket(drawn)
    for (let b = 0; b < buckets; b++) {
      const n = this.bucketCounts[b] as number
      if (n === 0) continue
      ctx.strokeStyle = this.settings.colors[b] ?? '#ffffff'
      ctx.beginPath()
      const start = this.bucketStarts[b] as number
      for (let j = start; j < start + n; j++) {
        const s = (sorted[j] as number) * 4
        ctx.moveTo(this.segments[s] as number, this.segments[s + 1] as number)
        ctx.lineTo(this.segments[s + 2] as number, this.segments[s + 3] as number)
      }
      ctx.stroke()
    }
  }

  /** This frame's particle indices grouped by bucket (a counting sort into a reused buffer). */
  private groupByBucket(drawn: number): Uint32Array {
    const buckets = this.bucketCounts.length
    for (let b = 0; b < buckets; b++) this.cursor[b] = this.bucketStarts[b] as number
    for (let j = 0; j < drawn; j++) {
      const b = this.bucketOf[j] as number
      const at = this.cursor[b] as number
      this.sorted[at] = this.order[j] as number
      this.cursor[b] = at + 1
    }
    return this.sorted
  }

  /** Clears the canvas (the view is moving). */
  clear(ctx: ParticleContext): void {
    const grid = this.grid
    if (grid) ctx.clearRect(0, 0, grid.width, grid.height)
  }
}
