import ExcelJS from 'exceljs'
import type { PspsReport, ReportCell, ReportColumn } from './reportRows'

const TOTAL = 'Total'

/** A text cell a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a leading apostrophe. */
function safeText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

function csvCell(column: ReportColumn, v: ReportCell | undefined): string {
  if (v === null || v === undefined) return ''
  if (column.kind === 'date' && typeof v === 'number') return new Date(v).toISOString()
  return typeof v === 'string' ? safeText(v) : String(v)
}

/** The first column that is not a number column holds the word Total on the totals line. */
function totalLabelIndex(columns: readonly ReportColumn[]): number {
  return columns.findIndex((c) => c.kind !== 'number')
}

/** The report as CSV (RFC 4180, CRLF): titles, one line per row, a totals line. Times in ISO 8601 UTC. */
export function reportCsv(report: PspsReport): string {
  const label = totalLabelIndex(report.columns)
  const lines: string[][] = [report.columns.map((c) => c.title)]
  for (const r of report.rows) lines.push(report.columns.map((c) => csvCell(c, r.values[c.field])))
  lines.push(
    report.columns.map((c, i) => {
      const t = report.totals[c.field]
      if (t !== undefined) return t === null ? '' : String(t)
      return i === label ? TOTAL : ''
    }),
  )
  return lines.map((l) => l.map(csvField).join(',')).join('\r\n') + '\r\n'
}

const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss'

function xlsxValue(column: ReportColumn, v: ReportCell | undefined): ExcelJS.CellValue {
  if (v === null || v === undefined) return null
  if (column.kind === 'date' && typeof v === 'number') return new Date(v)
  // A string cell of a workbook is text, never a formula: written as it is.
  return v
}

/** What the workbook says about its event besides the table. */
export interface WorkbookEvent {
  name: string
  phases: { phase: string; at: number; by: string }[]
}

/**
 * The report as an Excel workbook (exceljs): sheet "Report" with a bold header row, one row per
 * circuit per de-energization — times as date cells (UTC), counts and hours as numbers — and a bold
 * totals row; sheet "Timeline" with the event's phase changes.
 */
export async function reportXlsx(report: PspsReport, event: WorkbookEvent): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  book.creator = 'Emberline'
  const sheet = book.addWorksheet('Report', { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.columns = report.columns.map((c) => ({
    header: c.title,
    key: c.field,
    width: Math.max(12, Math.min(40, c.title.length + 2)),
    style: c.kind === 'date' ? { numFmt: DATE_FORMAT } : {},
  }))
  sheet.getRow(1).font = { bold: true }
  for (const r of report.rows) sheet.addRow(report.columns.map((c) => xlsxValue(c, r.values[c.field])))
  const label = totalLabelIndex(report.columns)
  const totals = sheet.addRow(
    report.columns.map((c, i) => {
      const t = report.totals[c.field]
      if (t !== undefined) return t
      return i === label ? TOTAL : null
    }),
  )
  totals.font = { bold: true }
  const timeline = book.addWorksheet('Timeline')
  timeline.columns = [
    { header: 'Event', key: 'event', width: 30 },
    { header: 'Phase', key: 'phase', width: 16 },
    { header: 'Time (UTC)', key: 'at', width: 22, style: { numFmt: DATE_FORMAT } },
    { header: 'By', key: 'by', width: 30 },
  ]
  timeline.getRow(1).font = { bold: true }
  for (const p of event.phases) timeline.addRow([event.name, p.phase, new Date(p.at), p.by])
  return Buffer.from(await book.xlsx.writeBuffer())
}
