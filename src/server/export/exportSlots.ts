import type { ExportLimits } from '../../shared/config'

/** Why an export could not start now: this member runs its limit already, or the server does. */
export type SlotRefusal = 'member' | 'server'

/**
 * Running exports, counted per member and in total (config/app.yaml `exports`): `take` answers a
 * release function, or why no slot is free. Releasing twice is harmless.
 */
export class ExportSlots {
  private readonly byMember = new Map<string, number>()
  private running = 0

  constructor(private readonly limits: Pick<ExportLimits, 'perMember' | 'total'>) {}

  take(member: string): (() => void) | SlotRefusal {
    const mine = this.byMember.get(member) ?? 0
    if (mine >= this.limits.perMember) return 'member'
    if (this.running >= this.limits.total) return 'server'
    this.byMember.set(member, mine + 1)
    this.running++
    let released = false
    return () => {
      if (released) return
      released = true
      this.running--
      const left = (this.byMember.get(member) ?? 1) - 1
      if (left > 0) this.byMember.set(member, left)
      else this.byMember.delete(member)
    }
  }

  /** Exports running now (all members). */
  get size(): number {
    return this.running
  }
}
