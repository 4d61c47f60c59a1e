import { notify } from '../../shared/toastEvents'

/** An error toast for a failed table request or export (the app's toaster; previous rows stay). */
export function showTableError(message: string): void {
  notify('error', message)
}
