import type { PspsReportColumn } from '../../shared/config'
import type { DeenergizationPeriod, StoredPspsEvent, StoredPspsEventCircuit } from '../store/pspsEventStore'

export type ReportField = PspsReportColumn['field']
/** How a report column's cells are typed (CSV text, workbook cell type, JSON value). */
export type ReportKind = 'text' | 'number' | 'date'
/** A cell: text, number, a time (ms since the epoch, kind `date`) or empty. */
export type ReportCell = string | number | null

export interface ReportColumn {
  field: ReportField
  title: string
  kind: ReportKind
}

export interface ReportRow {
  circuit: string
  period: number
  values: Partial<Record<ReportField, ReportCell>>
}

/** The post-event report: one row per circuit per de-energization; totals of the number columns. */
export interface PspsReport {
  columns: ReportColumn[]
  rows: ReportRow[]
  /** field → sum over the rows (null when no row has a value); number columns but `period` only. */
  totals: Partial<Record<ReportField, number | null>>
}

const KINDS: Record<ReportField, ReportKind> = {
  eventName: 'text',
  circuit: 'text',
  period: 'number',
  deenergizedAt: 'date',
  patrolledAt: 'date',
  restoredAt: 'date',
  durationHours: 'number',
  customersResidential: 'number',
  customersCommercial: 'number',
  customersIndustrial: 'number',
  customersOther: 'number',
  customersTotal: 'number',
  medicalBaseline: 'number',
  criticalFacilities: 'number',
  criticalFacilityTypes: 'text',
  damageFound: 'text',
  notes: 'text',
  firstNotificationAt: 'date',
  notificationTimes: 'text',
  notificationCount: 'number',
  recordedBy: 'text',
}

const HOUR = 3_600_000
const iso = (ms: number) => new Date(ms).toISOString()

/** What the row builder needs besides the event: the notification times and member names. */
export interface ReportContext {
  /** Times (ms, ascending) of the notifications sent from `notificationsFrom` on. */
  notifications: readonly number[]
  /** The report's "now": the end of an unrestored period's notification window. */
  now: number
  email: (memberId: string) => string | null
}

function cells(
  event: StoredPspsEvent,
  c: StoredPspsEventCircuit,
  p: DeenergizationPeriod,
  ctx: ReportContext,
): Record<ReportField, ReportCell> {
  const facilities = Object.entries(c.criticalFacilities)
  const until = p.restoredAt ?? ctx.now
  const sent = ctx.notifications.filter((t) => t <= until)
  const first = ctx.notifications.find((t) => t <= p.deenergizedAt)
  return {
    eventName: event.name,
    circuit: c.circuit,
    period: p.period,
    deenergizedAt: p.deenergizedAt,
    patrolledAt: p.patrolledAt,
    restoredAt: p.restoredAt,
    // Hours to 2 decimals (to the 36 seconds); empty until the circuit is restored.
    durationHours:
      p.restoredAt === null ? null : Math.round(((p.restoredAt - p.deenergizedAt) / HOUR) * 100) / 100,
    customersResidential: c.customers.residential,
    customersCommercial: c.customers.commercial,
    customersIndustrial: c.customers.industrial,
    customersOther: c.customers.other,
    customersTotal: c.customers.total,
    medicalBaseline: c.medicalBaseline,
    criticalFacilities: facilities.reduce((n, [, k]) => n + k, 0),
    criticalFacilityTypes: facilities.map(([type, k]) => `${type}: ${k}`).join('; '),
    damageFound: p.damageFound === null ? null : p.damageFound ? 'Yes' : 'No',
    notes: p.notes,
    firstNotificationAt: first ?? null,
    notificationTimes: sent.map(iso).join('; '),
    notificationCount: sent.length,
    recordedBy: ctx.email(p.recordedBy) ?? p.recordedBy,
  }
}

/**
 * Where an event's notifications start: `lookbackHours` before its first de-energization, or its
 * creation when that is earlier (an event recorded as it happens).
 */
export function notificationsFrom(event: StoredPspsEvent, lookbackHours: number): number {
  let first = event.createdAt
  for (const c of event.circuits)
    for (const p of c.periods) first = Math.min(first, p.deenergizedAt - lookbackHours * HOUR)
  return first
}

/**
 * The one row builder of the post-event report (JSON, CSV and workbook): every circuit of the
 * event in its order, one row per de-energization period (a circuit never switched off has no
 * row), the configured columns only. Totals sum the rows, so a circuit de-energized twice counts
 * its customers twice (customer interruptions, as the regulator's roll-up counts them).
 */
export function buildReport(
  event: StoredPspsEvent,
  columns: readonly PspsReportColumn[],
  ctx: ReportContext,
): PspsReport {
  const cols = columns.map((c): ReportColumn => ({ field: c.field, title: c.title, kind: KINDS[c.field] }))
  const rows: ReportRow[] = []
  for (const c of event.circuits)
    for (const p of c.periods) {
      const all = cells(event, c, p, ctx)
      rows.push({
        circuit: c.circuit,
        period: p.period,
        values: Object.fromEntries(cols.map((k) => [k.field, all[k.field]])),
      })
    }
  const totals: PspsReport['totals'] = {}
  for (const k of cols) {
    if (k.kind !== 'number' || k.field === 'period') continue
    const values = rows.map((r) => r.values[k.field]).filter((v): v is number => typeof v === 'number')
    totals[k.field] = values.length === 0 ? null : Math.round(values.reduce((a, b) => a + b, 0) * 100) / 100
  }
  return { columns: cols, rows, totals }
}
