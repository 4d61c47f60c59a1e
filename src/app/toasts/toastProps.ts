import type { Intent, ToastProps, ToasterPosition } from '@blueprintjs/core'
import type { IconName } from '@blueprintjs/icons'
import { appConfig } from '../../shared/config'

import type { ToastType } from '../../shared/toastEvents'

export type { ToastType }

const intents: Record<ToastType, Intent> = {
  info: 'primary',
  success: 'success',
  warning: 'warning',
  error: 'danger',
  loading: 'none',
  default: 'none',
}

const icons: Record<ToastType, IconName | undefined> = {
  info: 'info-sign',
  success: 'tick-circle',
  warning: 'warning-sign',
  error: 'error',
  loading: 'refresh',
  default: undefined,
}

/** Blueprint toast props for a message of a type, with the timing and close button of config. */
export function toastProps(type: ToastType, message: ToastProps['message']): ToastProps {
  return {
    message,
    intent: intents[type],
    icon: icons[type],
    timeout: appConfig.toasts.autoCloseMs,
    isCloseButtonShown: appConfig.toasts.closeButton,
    className: `emberline-toast emberline-toast-${type}`,
  }
}

const positions: Record<string, ToasterPosition> = {
  'top-center': 'top',
  'top-left': 'top-left',
  'top-right': 'top-right',
  'bottom-center': 'bottom',
  'bottom-left': 'bottom-left',
  'bottom-right': 'bottom-right',
}

/** Blueprint's name for the configured toast position ('top-center' → 'top'). */
export function toasterPosition(position: string = appConfig.toasts.position): ToasterPosition {
  return positions[position] ?? 'top'
}
