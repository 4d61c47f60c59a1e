/**
 * The printable post-event report of a PSPS event: the PSPS route with the event and `view=report`,
 * the map with no data layer on (`layers=`), so its picture shows the de-energized circuits on the
 * base map alone.
 */
export function reportPath(id: number): string {
  return `/PSPS?event=${id}&view=report&layers=`
}

/** Whether a PSPS query asks for the report page. */
export const isReportQuery = (search: string): boolean => new URLSearchParams(search).get('view') === 'report'
