import { formatValue } from '../../../shared/format'
import type { Popup } from '../../../shared/config'

export interface PopupContent {
  readonly title: string
  readonly rows: readonly { readonly label: string; readonly value: string }[]
}

/**
 * A popup from config: the title is the feature's value of `title` when it names an attribute,
 * else the literal text; each field formatted by the shared formatters. Ages ('N hours ago') are
 * measured against `now`, the map's clock (the demo reference time in demo mode), as the layer's
 * colours and the tables are.
 */
export function popupContent(
  popup: Popup,
  props: Readonly<Record<string, unknown>>,
  now: number = Date.now(),
): PopupContent {
  const titleValue = popup.title !== undefined ? props[popup.title] : undefined
  const title = titleValue !== undefined && titleValue !== null ? String(titleValue) : (popup.title ?? '')
  const rows = popup.fields.map((f) => ({
    label: f.label,
    value: formatValue({ formatter: f.formatter, unitField: f.unitField }, props[f.key], props, { now }),
  }))
  return { title, rows }
}

/** The popup as a DOM element (text only, never HTML from data). */
export function popupElement(content: PopupContent, doc: Document = document): HTMLElement {
  const root = doc.createElement('div')
  root.className = 'el-popup'
  const h = doc.createElement('h4')
  h.textContent = content.title
  root.appendChild(h)
  const table = doc.createElement('table')
  for (const row of content.rows) {
    const tr = doc.createElement('tr')
    const th = doc.createElement('th')
    th.textContent = row.label
    const td = doc.createElement('td')
    td.textContent = row.value
    tr.append(th, td)
    table.appendChild(tr)
  }
  root.appendChild(table)
  return root
}
