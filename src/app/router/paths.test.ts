import { describe, expect, it } from 'vitest'
import { appConfig } from '../../shared/config'
import { isPublicPath, loginPathFor, routeTitle, safeReturnPath, samePath, usesLayout } from './paths'

describe('route paths', () => {
  it('match case-insensitively and ignore a trailing slash', () => {
    expect(samePath('/DailyWildfireRisk', '/dailywildfirerisk')).toBe(true)
    expect(samePath('/login/Authenticate', '/login/authenticate/')).toBe(true)
    expect(samePath('/Help', '/Settings')).toBe(false)
  })

  it('know the public and layout-free routes from config', () => {
    expect(isPublicPath('/login/authenticate')).toBe(true)
    expect(isPublicPath('/LOGIN/RESET')).toBe(true)
    expect(isPublicPath('/Settings')).toBe(false)
    expect(usesLayout('/login/Reset')).toBe(false)
    expect(usesLayout('/Help')).toBe(true)
  })

  it('follow only same-site, protected return paths', () => {
    expect(safeReturnPath('/Settings?x=1')).toBe('/Settings?x=1')
    expect(safeReturnPath('//evil.example/x')).toBeNull()
    expect(safeReturnPath('https://evil.example')).toBeNull()
    expect(safeReturnPath('/login/Authenticate')).toBeNull()
    expect(safeReturnPath(null)).toBeNull()
  })

  it('send to the login route with the asked-for page', () => {
    expect(loginPathFor('/Settings')).toBe(`${appConfig.routes.login}?next=%2FSettings`)
    expect(loginPathFor(appConfig.routes.default)).toBe(appConfig.routes.login)
  })

  it('title routes from config', () => {
    expect(routeTitle('/psps')).toBe('PSPS')
    expect(routeTitle('/nowhere')).toBeNull()
  })
})
