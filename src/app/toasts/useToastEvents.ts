import { useEffect } from 'react'
import { showToast } from './toaster'
import { toastEventName, toastRequest } from '../../shared/toastEvents'

/** Shows the toasts features ask for through the 'emberline:toast' event. */
export function useToastEvents(): void {
  useEffect(() => {
    const listener = (event: Event) => {
      const request = toastRequest((event as CustomEvent<unknown>).detail)
      if (request) void showToast(request.type, request.message)
    }
    window.addEventListener(toastEventName, listener)
    return () => window.removeEventListener(toastEventName, listener)
  }, [])
}
