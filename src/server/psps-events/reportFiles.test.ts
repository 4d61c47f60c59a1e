import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import type { StoredPspsEvent } from '../store/pspsEventStore'
import { reportCsv, reportXlsx } from './reportFiles'
import { buildReport, notificationsFrom } from './reportRows'

const H = 3_600_000
const T0 = Date.UTC(2026, 10, 20, 6, 0)
const event: StoredPspsEvent = {
  id: 1,
  name: 'Wind event',
  phase: 'restored',
  createdAt: T0 + 100 * H,
  createdBy: 'm1',
  updatedAt: T0,
  phases: [{ phase: 'watch', at: T0, by: 'm1' }],
  circuits: [
    {
      circuit: 'C-1',
      customers: { residential: 90, commercial: 8, industrial: 2, other: 0, total: 100 },
      medicalBaseline: 4,
      criticalFacilities: { hospital: 1, water: 2 },
      periods: [
        {
          period: 1,
          deenergizedAt: T0,
          patrolledAt: null,
          restoredAt: T0 + 1.5 * H,
          damageFound: false,
          notes: '=1+2, see "span 4"',
          recordedBy: 'm1',
          recordedAt: T0,
        },
      ],
    },
    {
      circuit: 'C-2',
      customers: { residential: null, commercial: null, industrial: null, other: 50, total: 50 },
      medicalBaseline: null,
      criticalFacilities: {},
      periods: [],
    },
  ],
}
const email = (id: string) => (id === 'm1' ? 'op@example.org' : null)

describe('the post-event report rows', () => {
  it('follow the configured columns, in their order and titles (another template is another list)', () => {
    const report = buildReport(
      event,
      [
        { field: 'customersTotal', title: 'Cust.' },
        { field: 'circuit', title: 'Feeder' },
        { field: 'criticalFacilityTypes', title: 'Facilities' },
        { field: 'notes', title: 'Remarks' },
        { field: 'recordedBy', title: 'By' },
        { field: 'notificationCount', title: 'Notices' },
      ],
      { notifications: [T0 - 2 * H, T0 + H, T0 + 3 * H], now: T0 + 200 * H, email },
    )
    expect(report.columns.map((c) => [c.field, c.title, c.kind])).toEqual([
      ['customersTotal', 'Cust.', 'number'],
      ['circuit', 'Feeder', 'text'],
      ['criticalFacilityTypes', 'Facilities', 'text'],
      ['notes', 'Remarks', 'text'],
      ['recordedBy', 'By', 'text'],
      ['notificationCount', 'Notices', 'number'],
    ])
    // C-2 was never switched off: no row.
    expect(report.rows).toHaveLength(1)
    expect(report.rows[0]!.values).toEqual({
      customersTotal: 100,
      circuit: 'C-1',
      criticalFacilityTypes: 'hospital: 1; water: 2',
      notes: '=1+2, see "span 4"',
      recordedBy: 'op@example.org',
      notificationCount: 2,
    })
    expect(report.totals).toEqual({ customersTotal: 100, notificationCount: 2 })
    expect(reportCsv(report)).toBe(
      'Cust.,Feeder,Facilities,Remarks,By,Notices\r\n' +
        `100,C-1,hospital: 1; water: 2,"'=1+2, see ""span 4""",op@example.org,2\r\n` +
        '100,Total,,,,2\r\n',
    )
  })

  it('notifications count from the lookback before the first de-energization', () => {
    expect(notificationsFrom(event, 72)).toBe(T0 - 72 * H)
    expect(notificationsFrom({ ...event, circuits: [] }, 72)).toBe(event.createdAt)
  })

  it('a note that looks like a formula stays text in the workbook', async () => {
    const report = buildReport(event, [{ field: 'notes', title: 'Remarks' }], {
      notifications: [],
      now: T0,
      email,
    })
    const book = new ExcelJS.Workbook()
    await book.xlsx.load((await reportXlsx(report, { name: 'x', phases: [] })) as unknown as ArrayBuffer)
    const cell = book.getWorksheet('Report')!.getCell('A2')
    expect(cell.type).toBe(ExcelJS.ValueType.String)
    expect(cell.value).toBe('=1+2, see "span 4"')
  })
})
