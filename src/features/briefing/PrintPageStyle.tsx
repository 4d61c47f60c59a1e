/** A CSS string literal of any text (quotes, backslashes and line breaks escaped). */
export function cssString(text: string): string {
  return `"${text
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/[\r\n]+/g, ' ')}"`
}

/** The @page rules of the printout: organization, title and time at the top of every page, page numbers below. */
export function printPageCss(organization: string, printedAt: string, title = 'Shift briefing'): string {
  const box = 'font: 9pt sans-serif; color: #333;'
  return `@page {
  margin: 18mm 12mm 16mm;
  background: #fff;
  @top-left { content: ${cssString(`${organization} · ${title}`)}; ${box} }
  @top-right { content: ${cssString(printedAt)}; ${box} }
  @bottom-right { content: "Page " counter(page) " of " counter(pages); ${box} }
}`
}

/** Mounted with the printable page only (the briefing, the PSPS report), so other pages print as before. */
export function PrintPageStyle({
  organization,
  printedAt,
  title,
}: {
  organization: string
  printedAt: string
  /** What the page header calls the printout (default: Shift briefing). */
  title?: string
}) {
  return <style data-testid="briefing-page-style">{printPageCss(organization, printedAt, title)}</style>
}
