import { authFetch } from '../../../session'

/** The phases of a PSPS event, in order. */
export const PHASES = ['watch', 'warning', 'de-energized', 'patrolling', 'restored', 'closed'] as const
export type PspsPhase = (typeof PHASES)[number]

/** An event as the list shows it. */
export interface PspsEventSummary {
  id: number
  name: string
  phase: PspsPhase
  createdAt: string
  createdBy: string
  updatedAt: string
  circuitCount: number
}

/** An alert delivery sent (a `sent` line of the delivery log) while a phase lasted. */
export interface EventNotification {
  at: string
  channel: string | null
  kind: string
  alertIds: string[]
}

/** A phase change: when, by whom, until when, and the notifications sent while it lasted. */
export interface PhaseChange {
  phase: PspsPhase
  at: string
  until: string | null
  by: string
  byEmail: string | null
  notifications: EventNotification[]
}

/** One de-energization of a circuit (a circuit can be switched off and on more than once). */
export interface CircuitPeriod {
  period: number
  deenergizedAt: string
  patrolledAt: string | null
  restoredAt: string | null
  damageFound: boolean | null
  notes: string | null
  recordedBy: string
  recordedByEmail: string | null
  recordedAt: string
}

/** The server's state of a circuit, from its latest period. */
export type ServerCircuitState = 'energized' | 'de-energized' | 'patrolled' | 'restored'

export interface EventCircuit {
  circuit: string
  customers: {
    residential: number | null
    commercial: number | null
    industrial: number | null
    other: number | null
    total: number | null
  }
  medicalBaseline: number | null
  criticalFacilities: Record<string, number>
  state: ServerCircuitState
  periods: CircuitPeriod[]
}

export interface PspsEventDetail {
  id: number
  name: string
  phase: PspsPhase
  /** The phases the event may move to from here. */
  nextPhases: PspsPhase[]
  createdAt: string
  createdBy: string
  createdByEmail: string | null
  updatedAt: string
  phases: PhaseChange[]
  circuits: EventCircuit[]
}

/** A step recorded on a circuit (times ISO 8601). */
export interface CircuitStep {
  deenergizedAt?: string
  patrolledAt?: string | null
  restoredAt?: string | null
  damageFound?: boolean | null
  notes?: string | null
}

export type ReportCell = string | number | null

/** The printable report: the configured columns, one row per circuit per de-energization, totals. */
export interface PspsReport {
  event: { id: number; name: string; phase: PspsPhase; createdAt: string }
  generatedAt: string
  /** `date` cells are ISO 8601 strings. */
  columns: { field: string; title: string; kind: 'text' | 'number' | 'date' }[]
  rows: { circuit: string; period: number; values: Record<string, ReportCell> }[]
  /** Sums of the number columns (null when no row has a value). */
  totals: Record<string, number | null>
}

/** An answer the API refused: its message (a 400 names the parameter). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly parameter: string | null,
  ) {
    super(message)
  }
}

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await authFetch(path, {
    ...init,
    headers: init.body ? { 'content-type': 'application/json' } : undefined,
  })
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string; parameter?: string } | null
    throw new ApiError(body?.message ?? `HTTP ${response.status}`, response.status, body?.parameter ?? null)
  }
  return (await response.json()) as T
}

const eventPath = (id: number) => `/api/psps/events/${encodeURIComponent(String(id))}`

export function fetchEvents(signal?: AbortSignal): Promise<PspsEventSummary[]> {
  return call<{ events: PspsEventSummary[] }>('/api/psps/events', { signal }).then((b) => b.events)
}

export function fetchEvent(id: number, signal?: AbortSignal): Promise<PspsEventDetail> {
  return call<PspsEventDetail>(eventPath(id), { signal })
}

/** Creates an event from the forecast roll-up's recommended circuits. */
export function createEventFromForecast(name: string): Promise<PspsEventDetail> {
  return call(`/api/psps/events`, { method: 'POST', body: JSON.stringify({ fromForecast: true, name }) })
}

export function changePhase(id: number, phase: PspsPhase): Promise<PspsEventDetail> {
  return call(eventPath(id), { method: 'PATCH', body: JSON.stringify({ phase }) })
}

export function recordStep(id: number, circuit: string, step: CircuitStep): Promise<PspsEventDetail> {
  return call(`${eventPath(id)}/circuits/${encodeURIComponent(circuit)}`, {
    method: 'PATCH',
    body: JSON.stringify(step),
  })
}

export function fetchReport(id: number, signal?: AbortSignal): Promise<PspsReport> {
  return call<PspsReport>(`${eventPath(id)}/report`, { signal })
}

/** What the member may do with PSPS events (GET /api/me's `permissions.psps_events`, `*` expanded). */
export interface PspsEventActions {
  /** `psps_events.create`: start an event (from the forecast). */
  readonly create: boolean
  /** `psps_events.update`: change an event's phase and record circuit steps. */
  readonly update: boolean
}

/** Nothing granted: what the page assumes until GET /api/me answers (the server refuses anyway). */
export const READ_ONLY: PspsEventActions = { create: false, update: false }

/** The member's PSPS event actions, from GET /api/me. */
export async function fetchPspsEventActions(signal?: AbortSignal): Promise<PspsEventActions> {
  const me = await call<{ permissions?: Record<string, unknown> }>('/api/me', { signal })
  const granted = me.permissions?.psps_events
  const actions = Array.isArray(granted) ? granted.filter((a): a is string => typeof a === 'string') : []
  return { create: actions.includes('create'), update: actions.includes('update') }
}
