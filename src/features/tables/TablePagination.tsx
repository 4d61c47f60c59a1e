import { Button, ButtonGroup } from '@blueprintjs/core'
import { pageCount } from './recordsRequest'

/** Page controls: first, previous, "Page n of m", next, last (one-based, page count from the total). */
export function TablePagination(props: {
  page: number
  total: number | null
  itemsPerPage: number
  loading: boolean
  onPage: (page: number) => void
}) {
  const pages = pageCount(props.total, props.itemsPerPage)
  const { page, onPage } = props
  const first = (page - 1) * props.itemsPerPage + 1
  const last = Math.min(page * props.itemsPerPage, props.total ?? 0)
  return (
    <div className="emberline-pagination" role="navigation" aria-label="Pages">
      <span className="emberline-range">
        {props.total === null ? '' : props.total === 0 ? '0 records' : `${first}–${last} of ${props.total}`}
      </span>
      <ButtonGroup variant="minimal">
        <Button
          size="small"
          icon="double-chevron-left"
          aria-label="First page"
          disabled={page <= 1}
          onClick={() => onPage(1)}
        />
        <Button
          size="small"
          icon="chevron-left"
          aria-label="Previous page"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        />
        <span className="emberline-page" aria-live="polite">{`Page ${page} of ${pages}`}</span>
        <Button
          size="small"
          icon="chevron-right"
          aria-label="Next page"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        />
        <Button
          size="small"
          icon="double-chevron-right"
          aria-label="Last page"
          disabled={page >= pages}
          onClick={() => onPage(pages)}
        />
      </ButtonGroup>
    </div>
  )
}
