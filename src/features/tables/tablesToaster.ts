import { showToast } from '../../app/toasts'

/** An error toast for a failed table request or export (the app's toaster; previous rows stay). */
export function showTableError(message: string): void {
  if (typeof document === 'undefined') return
  void showToast('error', message)
}
