export type CrossTabMessage = 'logout' | 'login'

export interface CrossTabSync {
  announce(message: CrossTabMessage): void
  close(): void
}

const channelName = 'emberline-session'
const storageKey = 'emberline-session-event'

/**
 * Tells the app's other tabs about logins and logouts (spec §4: state shared across tabs).
 * BroadcastChannel where available, otherwise a localStorage 'storage' event.
 */
export function createCrossTabSync(
  onMessage: (message: CrossTabMessage) => void,
  env: { BroadcastChannel?: typeof BroadcastChannel; window?: Window } = {
    BroadcastChannel: globalThis.BroadcastChannel,
    window: globalThis.window,
  },
): CrossTabSync {
  if (env.BroadcastChannel) {
    const channel = new env.BroadcastChannel(channelName)
    channel.onmessage = (event: MessageEvent) => {
      if (event.data === 'logout' || event.data === 'login') onMessage(event.data)
    }
    return { announce: (message) => channel.postMessage(message), close: () => channel.close() }
  }
  const win = env.window
  if (!win) return { announce: () => {}, close: () => {} }
  const listener = (event: StorageEvent) => {
    if (event.key !== storageKey || !event.newValue) return
    const message = (JSON.parse(event.newValue) as { message?: string }).message
    if (message === 'logout' || message === 'login') onMessage(message)
  }
  win.addEventListener('storage', listener)
  return {
    announce: (message) => win.localStorage.setItem(storageKey, JSON.stringify({ message, at: Date.now() })),
    close: () => win.removeEventListener('storage', listener),
  }
}
