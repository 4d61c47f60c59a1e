import { Spinner } from '@blueprintjs/core'

/** Shown while the first route (its session check and screen chunk) loads. */
export function BootSpinner() {
  return (
    <div className="emberline-boot">
      <Spinner size={32} aria-label="Loading" />
    </div>
  )
}
