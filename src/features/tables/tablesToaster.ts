import { OverlayToaster, type Toaster } from '@blueprintjs/core'
import { appConfig } from '../../generated/config'

let toaster: Promise<Toaster> | null = null

function tablesToaster(): Promise<Toaster> {
  toaster ??= OverlayToaster.create({
    position: appConfig.toasts.position === 'top-center' ? 'top' : 'bottom',
  })
  return toaster
}

/** An error toast for a failed table request (spec §4: the previous rows stay). */
export function showTableError(message: string): void {
  if (typeof document === 'undefined') return
  void tablesToaster().then((t) =>
    t.show({ message, intent: 'danger', icon: 'error', timeout: appConfig.toasts.autoCloseMs }),
  )
}
