import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { appConfig } from '../../shared/config'
import { HelpScreen } from './HelpScreen'
import { keyboardMap } from './keyboardMap'

describe('HelpScreen', () => {
  const html = renderToStaticMarkup(<HelpScreen />)

  it('covers every topic of the issue', () => {
    for (const heading of [
      'Getting started',
      'Signing in and the SMS step',
      'Resetting a password',
      'Administering members',
      'Reading the map',
      'Tables and filters',
      'Keyboard use',
      'Who to contact',
    ]) {
      expect(html).toContain(heading)
    }
  })

  it('shows the whole keyboard map', () => {
    for (const entry of keyboardMap) {
      expect(html).toContain(`<kbd>${entry.keys.replaceAll('&', '&amp;')}</kbd>`)
      expect(html).toContain(entry.action.replaceAll('"', '&quot;'))
    }
    expect(html).toContain('Open the popup of the feature under the cross at the map centre')
  })

  it('takes the contact and SMS details from config', () => {
    expect(html).toContain(`mailto:${appConfig.contact.email}`)
    expect(html).toContain(appConfig.contact.name)
    expect(html).toContain(`${appConfig.identity.otp.digits}-digit code`)
  })
})
