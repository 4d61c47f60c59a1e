import { OverlayToaster, type Toaster, type ToastProps } from '@blueprintjs/core'
import { appConfig } from '../../shared/config'
import { toasterPosition, toastProps, type ToastType } from './toastProps'

let toaster: Promise<Toaster> | null = null

function getToaster(): Promise<Toaster> {
  toaster ??= OverlayToaster.create({
    position: toasterPosition(),
    className: appConfig.toasts.theme === 'dark' ? 'bp6-dark emberline-toaster' : 'emberline-toaster',
    usePortal: true,
  })
  return toaster
}

/**
 * Shows an app notification (spec §9: top-center, dark, 5000 ms, close button, pauses while
 * hovered — Blueprint's Toast stops its timer on mouse enter). Returns the toast's key.
 */
export async function showToast(
  type: ToastType,
  message: ToastProps['message'],
  overrides: Partial<ToastProps> = {},
): Promise<string> {
  return (await getToaster()).show({ ...toastProps(type, message), ...overrides })
}

/** Removes every toast (called on each change of page address). */
export function clearToasts(): void {
  if (toaster) void toaster.then((t) => t.clear())
}
