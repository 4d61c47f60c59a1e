/** The toast types of spec §4. */
export type ToastType = 'info' | 'success' | 'warning' | 'error' | 'loading' | 'default'

/**
 * Features raise app notifications without importing the app shell: they dispatch this DOM event,
 * `window.dispatchEvent(new CustomEvent('emberline:toast', { detail: { type: 'error', message } }))`,
 * or call notify() below; the shell's toaster (src/app/toasts) shows them.
 */
export const toastEventName = 'emberline:toast'

export interface ToastRequest {
  type: ToastType
  message: string
}

const types: readonly string[] = ['info', 'success', 'warning', 'error', 'loading', 'default']

export function notify(type: ToastType, message: string): void {
  if (typeof window === 'undefined') return
  window.dispatchEvent(new CustomEvent<ToastRequest>(toastEventName, { detail: { type, message } }))
}

/** A valid toast request from an event's detail, or null. */
export function toastRequest(detail: unknown): ToastRequest | null {
  if (typeof detail !== 'object' || detail === null) return null
  const { type, message } = detail as { type?: unknown; message?: unknown }
  if (typeof message !== 'string' || message === '') return null
  const kind = typeof type === 'string' && types.includes(type) ? (type as ToastType) : 'default'
  return { type: kind, message }
}
