import { useEffect, useState, type RefObject } from 'react'

/** An element's height in px, kept up to date with a ResizeObserver (0 before it is laid out). */
export function useElementHeight(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(0)
  useEffect(() => {
    const el = ref.current
    if (!el) return
    setHeight(el.clientHeight)
    const observer = new ResizeObserver(() => setHeight(el.clientHeight))
    observer.observe(el)
    return () => observer.disconnect()
  }, [ref])
  return height
}
