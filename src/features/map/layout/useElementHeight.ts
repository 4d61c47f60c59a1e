import { useLayoutEffect, useState, type RefObject } from 'react'

/** An element's height in px, kept up to date with a ResizeObserver (0 before it is laid out). */
export function useElementHeight(ref: RefObject<HTMLElement | null>): number {
  return Number(useElementSize(ref).split('x')[1])
}

/**
 * An element's size as 'WIDTHxHEIGHT' in px (a string, so effects can depend on it), kept up to date.
 * The first size is read in a layout effect, so the re-render it causes happens before the browser paints:
 * what is sized from it (the docked panels, the map) never shows, nor asks for tiles, at the wrong size.
 */
export function useElementSize(ref: RefObject<HTMLElement | null>): string {
  const [size, setSize] = useState('0x0')
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const read = () => setSize(`${el.clientWidth}x${el.clientHeight}`)
    read()
    const observer = new ResizeObserver(read)
    observer.observe(el)
    return () => observer.disconnect()
  }, [ref])
  return size
}
