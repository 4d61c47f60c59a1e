import { describe, expect, it } from 'vitest'
import { ParticleSim, type ParticleContext, type VelocityGrid } from './particleSim'

/** A 2D context that records the calls a frame makes. */
function recordingContext() {
  const calls: string[] = []
  const segments: { color: string; from: [number, number]; to: [number, number] }[] = []
  let from: [number, number] = [0, 0]
  const ctx: ParticleContext = {
    globalCompositeOperation: 'source-over',
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    fillRect: () => calls.push(`fillRect ${ctx.globalCompositeOperation} ${String(ctx.fillStyle)}`),
    clearRect: () => calls.push('clearRect'),
    beginPath: () => calls.push(`beginPath ${String(ctx.strokeStyle)}`),
    moveTo: (x: number, y: number) => {
      from = [x, y]
    },
    lineTo: (x: number, y: number) => {
      segments.push({ color: String(ctx.strokeStyle), from, to: [x, y] })
    },
    stroke: () => calls.push('stroke'),
  }
  return { ctx, calls, segments }
}

const colors = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9']

function uniformGrid(u: number, v: number, width = 40, height = 20, cellPx = 4): VelocityGrid {
  const cols = Math.ceil(width / cellPx)
  const cells = cols * Math.ceil(height / cellPx)
  return {
    u: new Float32Array(cells).fill(u),
    v: new Float32Array(cells).fill(v),
    cols,
    cellPx,
    width,
    height,
  }
}

/** Deterministic "random" numbers in [0, 1). */
function sequence(): () => number {
  let i = 0
  return () => ((i++ * 0.37) % 1) * 0.999
}

describe('ParticleSim', () => {
  const settings = { count: 50, maxSpeed: 40, stepMph: 10, maxMph: 90, colors }

  it('fades the trails once and draws every particle one step downwind, one path per colour bucket', () => {
    const sim = new ParticleSim(settings, sequence())
    sim.setGrid(uniformGrid(20, 0))
    const { ctx, calls, segments } = recordingContext()
    const drawn = sim.frame(ctx)
    expect(drawn).toBe(50)
    expect(calls).toEqual(['fillRect destination-out rgba(0,0,0,0.08)', 'beginPath c2', 'stroke'])
    expect(segments).toHaveLength(50)
    for (const s of segments) {
      expect(s.color).toBe('c2')
      // 20 mph of a 40 mph maximum: half of the 2.5 px step, due east
      expect(s.to[0] - s.from[0]).toBeCloseTo(1.25, 5)
      expect(s.to[1]).toBeCloseTo(s.from[1], 5)
    }
  })

  it('moves north winds up the screen and caps colours at the top bucket', () => {
    const sim = new ParticleSim(settings, sequence())
    sim.setGrid(uniformGrid(0, 120))
    const { ctx, segments } = recordingContext()
    sim.frame(ctx)
    expect(segments.length).toBeGreaterThan(0)
    for (const s of segments) {
      expect(s.color).toBe('c9')
      expect(s.to[1] - s.from[1]).toBeCloseTo(-2.5, 5)
    }
  })

  it('continues trails from where the last frame ended', () => {
    const sim = new ParticleSim({ ...settings, count: 1 }, sequence())
    sim.setGrid(uniformGrid(40, 0, 400, 20))
    const first = recordingContext()
    sim.frame(first.ctx)
    const second = recordingContext()
    sim.frame(second.ctx)
    expect(second.segments[0]?.from).toEqual(first.segments[0]?.to)
  })

  it('draws nothing where the field has no wind (particles respawn instead)', () => {
    const sim = new ParticleSim(settings, sequence())
    sim.setGrid(uniformGrid(NaN, NaN))
    const { ctx, calls, segments } = recordingContext()
    expect(sim.frame(ctx)).toBe(0)
    expect(segments).toHaveLength(0)
    expect(calls).toEqual(['fillRect destination-out rgba(0,0,0,0.08)'])
  })

  it('draws nothing before it has a view', () => {
    const { ctx, calls } = recordingContext()
    expect(new ParticleSim(settings).frame(ctx)).toBe(0)
    expect(calls).toEqual([])
  })
})
