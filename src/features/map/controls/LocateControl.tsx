import L from 'leaflet'
import { useEffect } from 'react'
import { useMap } from 'react-leaflet'

/** A 'locate me' button under the zoom control: centres the map on the browser's position. */
export function LocateControl() {
  const map = useMap()
  useEffect(() => {
    const control = new L.Control({ position: 'topleft' })
    control.onAdd = () => {
      const bar = L.DomUtil.create('div', 'leaflet-bar el-locate')
      const button = L.DomUtil.create('a', '', bar)
      button.href = '#'
      button.title = 'Show my location'
      button.setAttribute('role', 'button')
      button.setAttribute('aria-label', 'Show my location')
      button.textContent = '◎'
      L.DomEvent.disableClickPropagation(bar)
      L.DomEvent.on(button, 'click', (e) => {
        L.DomEvent.preventDefault(e)
        map.locate({ setView: true, maxZoom: 13 })
      })
      return bar
    }
    const onError = (e: L.ErrorEvent) => console.warn('Location unavailable:', e.message)
    map.on('locationerror', onError)
    control.addTo(map)
    return () => {
      map.off('locationerror', onError)
      control.remove()
    }
  }, [map])
  return null
}
