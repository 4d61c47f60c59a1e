import { describe, expect, it } from 'vitest'
import { appConfig } from '../../shared/config'
import { screenLoaderFor } from './screenModules'

describe('screenModules', () => {
  it('has a screen for every configured route, whatever the case', () => {
    for (const screen of appConfig.routes.screens) {
      expect(screenLoaderFor(screen.path), screen.path).not.toBeNull()
      expect(screenLoaderFor(screen.path.toUpperCase()), screen.path).not.toBeNull()
    }
  })

  it('has none for an unknown path', () => {
    expect(screenLoaderFor('/nowhere')).toBeNull()
  })
})
