import { TextArea } from '@blueprintjs/core'
import { useState } from 'react'

const KEY = 'emberline.briefing.notes'

function stored(): string {
  try {
    return localStorage.getItem(KEY) ?? ''
  } catch {
    return ''
  }
}

/**
 * Operator notes typed on the page and printed with it (the printout shows the text itself, not
 * the text box, so nothing is cut off). Kept in this browser until cleared.
 */
export function NotesSection() {
  const [notes, setNotes] = useState(stored)
  const change = (text: string) => {
    setNotes(text)
    try {
      localStorage.setItem(KEY, text)
    } catch {
      // storage full or disabled: the notes still print from the page
    }
  }
  return (
    <section className="el-briefing-section el-briefing-notes" aria-labelledby="briefing-notes">
      <h2 id="briefing-notes">Operator notes</h2>
      <TextArea
        className="el-briefing-screen-only"
        aria-label="Operator notes"
        fill
        autoResize
        placeholder="Handover notes for the next shift and field crews…"
        value={notes}
        onChange={(e) => change(e.currentTarget.value)}
      />
      <div className="el-briefing-print-only el-briefing-notes-text" data-testid="briefing-notes-text">
        {notes || 'None.'}
      </div>
    </section>
  )
}
