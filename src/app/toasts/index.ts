export { showToast, clearToasts } from './toaster'
export type { ToastType } from './toastProps'
export { useToastEvents } from './useToastEvents'
