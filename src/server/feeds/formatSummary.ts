import type { RunSummary } from './feedTypes'

/** The run summary as the CLI prints it: one line of counts, then one line per listed rejection. */
export function formatSummary(s: RunSummary): string[] {
  if (s.notModified) return [`${s.feed} → ${s.dataset}: not modified (304), nothing imported`]
  const lines = [
    `${s.feed} → ${s.dataset}: read ${s.read}, kept ${s.kept}, outside territory ${s.outsideTerritory}, ` +
      `other types ${s.filteredOut}, expired ${s.expired}, duplicates ${s.duplicates}, rejected ${s.rejected}` +
      (s.withoutGeometry ? `, without geometry (not on the map) ${s.withoutGeometry}` : ''),
    `${s.dataset} now holds ${s.stored} features; newest data ${s.newest ?? '—'}`,
  ]
  for (const r of s.rejections) lines.push(`  rejected ${r.at}: ${r.reason}`)
  if (s.rejected > s.rejections.length)
    lines.push(`  … and ${s.rejected - s.rejections.length} more rejected`)
  return lines
}
