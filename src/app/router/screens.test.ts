import { describe, expect, it } from 'vitest'
import { appConfig } from '../../shared/config'
import { screenLoaderFor } from './screens'

describe('screens', () => {
  it('has a screen for every configured route, whatever the case', () => {
    for (const screen of appConfig.routes.screens) {
      expect(screenLoaderFor(screen.path), screen.path).toBeTypeOf('function')
      expect(screenLoaderFor(screen.path.toUpperCase()), screen.path).toBeTypeOf('function')
    }
  })

  it('has none for an unknown path', () => {
    expect(screenLoaderFor('/nowhere')).toBeUndefined()
  })
})
