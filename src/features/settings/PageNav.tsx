import { Button } from '@blueprintjs/core'

interface PageNavProps {
  /** Names the navigation landmark, e.g. "Members pages". */
  label: string
  page: number
  pages: number
  onPage: (page: number) => void
}

/** Previous / "Page N of M" / Next under a paged list of the Organization section. */
export function PageNav({ label, page, pages, onPage }: PageNavProps) {
  return (
    <nav className="emberline-settings-actions" aria-label={label}>
      <Button
        size="small"
        icon="chevron-left"
        text="Previous"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      />
      <span aria-live="polite">
        Page {page} of {pages}
      </span>
      <Button
        size="small"
        endIcon="chevron-right"
        text="Next"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      />
    </nav>
  )
}
