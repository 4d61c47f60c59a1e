/** One row of the keyboard map shown on /Help (and in docs/accessibility.md). */
export interface KeyboardMapEntry {
  readonly area: string
  readonly keys: string
  readonly action: string
}

/** Every key the app answers to, by area: the app is usable with the keyboard alone. */
export const keyboardMap: readonly KeyboardMapEntry[] = [
  {
    area: 'Everywhere',
    keys: 'Tab / Shift+Tab',
    action: 'Move to the next or previous control; the focused one is outlined.',
  },
  {
    area: 'Everywhere',
    keys: 'Enter / Space',
    action: 'Press the focused button or link; Space switches a layer on or off.',
  },
  {
    area: 'Everywhere',
    keys: 'Escape',
    action: 'Close a menu, popup, dialog or drawer; focus goes back to what opened it.',
  },
  {
    area: 'Sidebar',
    keys: 'Space',
    action: 'Switch the focused layer on or off (a screen reader hears "… turned on").',
  },
  {
    area: 'Sidebar',
    keys: 'Arrow keys',
    action: 'In a radio group (PSPS), choose the next or previous sub-layer.',
  },
  {
    area: 'Sidebar',
    keys: 'Left / Right arrows',
    action: 'On an intensity slider, lower or raise the intensity by 1 %.',
  },
  { area: 'Map', keys: 'Arrow keys', action: 'Pan the focused map.' },
  { area: 'Map', keys: '+ / −', action: 'Zoom the focused map in or out.' },
  {
    area: 'Map',
    keys: 'Enter',
    action: 'Open the popup of the feature under the cross at the map centre; focus moves into it.',
  },
  {
    area: 'Panels',
    keys: 'Up / Down arrows, Page Up / Page Down, Home / End',
    action:
      'On the resize handle of a panel beneath the map (forecast, operations, tables): make it taller or shorter, or as tall or short as allowed.',
  },
  { area: 'Tables', keys: 'Arrow keys', action: 'Move between the cells of a table.' },
  {
    area: 'Tables',
    keys: 'Home / End (Ctrl for the corners)',
    action: 'First or last cell of the row (or of the table).',
  },
  { area: 'Tables', keys: 'Page Up / Page Down', action: 'Ten rows up or down.' },
  {
    area: 'Tables',
    keys: 'Left / Right arrows',
    action: 'On the table tabs, move to the previous or next tab; Enter shows that table.',
  },
  { area: 'Tables', keys: 'Delete', action: 'On a table tab, close that table.' },
  {
    area: 'Panels',
    keys: 'Up / Down arrows',
    action: 'On a panel’s resize handle, make the panel taller or shorter.',
  },
  {
    area: 'Panels',
    keys: 'Page Up / Page Down, Home / End',
    action: 'Resize by a tenth of the screen; largest or smallest.',
  },
  {
    area: 'Phones',
    keys: 'Enter on Layers / Open menu',
    action: 'Open the layer drawer or the navigation drawer.',
  },
]
