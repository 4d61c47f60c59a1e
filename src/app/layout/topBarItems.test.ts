import { describe, expect, it } from 'vitest'
import { appConfig } from '../../generated/config'
import { drawerEntries, menuEntries } from './topBarItems'

describe('top bar entries', () => {
  it("are 'Get Help' at /help, a divider and 'Logout' in the overflow menu", () => {
    expect(menuEntries.map((e) => (e.divider ? '---' : e.label))).toEqual(['Get Help', '---', 'Logout'])
    expect(menuEntries[0]?.path).toBe('/help')
    expect(menuEntries[2]?.action).toBe('logout')
    expect(appConfig.topBar.moreOptionsLabel).toBe('More options')
  })

  it('list Daily Wildfire Risk, Get Help, Logout in the mobile drawer', () => {
    expect(drawerEntries().map((e) => e.label)).toEqual(['Daily Wildfire Risk', 'Get Help', 'Logout'])
    expect(drawerEntries()[0]?.path).toBe('/dailywildfirerisk')
  })
})
