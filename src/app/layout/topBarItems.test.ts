import { describe, expect, it } from 'vitest'
import { appConfig } from '../../shared/config'
import { drawerEntries, menuEntries, menuTarget } from './topBarItems'

describe('top bar entries', () => {
  it("are 'Shift Briefing', 'Get Help' at /help, a divider and 'Logout' in the overflow menu", () => {
    expect(menuEntries.map((e) => (e.divider ? '---' : e.label))).toEqual([
      'Shift Briefing',
      'Get Help',
      '---',
      'Logout',
    ])
    expect(menuEntries[0]?.path).toBe('/Briefing')
    expect(menuEntries[1]?.path).toBe('/help')
    expect(menuEntries[3]?.action).toBe('logout')
    expect(appConfig.topBar.moreOptionsLabel).toBe('More options')
  })

  it('list Daily Wildfire Risk, Shift Briefing, Get Help, Logout in the mobile drawer', () => {
    expect(drawerEntries().map((e) => e.label)).toEqual([
      'Daily Wildfire Risk',
      'Shift Briefing',
      'Get Help',
      'Logout',
    ])
    expect(drawerEntries()[0]?.path).toBe('/dailywildfirerisk')
  })

  it('open the briefing with the map view of the current page, other entries as they are', () => {
    const search = '?c=-106.5,35.1&z=9&layers=psps,fire&sub=psps:psps_wind&hour=4&alert=x'
    expect(menuTarget('/Briefing', search)).toBe(
      '/Briefing?c=-106.5,35.1&z=9&layers=psps,fire&sub=psps:psps_wind&hour=4',
    )
    expect(menuTarget('/briefing', '')).toBe('/Briefing')
    expect(menuTarget('/help', search)).toBe('/help')
  })
})
