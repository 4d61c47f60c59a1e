import { describe, expect, it } from 'vitest'
import { appConfig } from '../../shared/config'
import { toasterPosition, toastProps, type ToastType } from './toastProps'

describe('toastProps', () => {
  it('auto-closes after the configured 5000 ms with a close button', () => {
    const props = toastProps('info', 'Hello')
    expect(props.timeout).toBe(5000)
    expect(props.timeout).toBe(appConfig.toasts.autoCloseMs)
    expect(props.isCloseButtonShown).toBe(true)
  })

  it('gives every configured type an intent', () => {
    const expected: Record<ToastType, string> = {
      info: 'primary',
      success: 'success',
      warning: 'warning',
      error: 'danger',
      loading: 'none',
      default: 'none',
    }
    for (const type of appConfig.toasts.types)
      expect(toastProps(type as ToastType, 'x').intent).toBe(expected[type as ToastType])
  })

  it('places the toaster top-center', () => {
    expect(toasterPosition()).toBe('top')
    expect(toasterPosition('bottom-right')).toBe('bottom-right')
  })
})
