import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { appConfig } from '../../shared/config'
import { AuthCard } from './AuthCard'

describe('AuthCard', () => {
  it('says what the product is under its name: the tagline of config (brand.tagline)', () => {
    const html = renderToStaticMarkup(
      <AuthCard title="Sign in" error={null}>
        <form />
      </AuthCard>,
    )
    expect(appConfig.brand.tagline).toBe('Wildfire risk for power utilities')
    expect(html).toContain(`data-testid="auth-tagline"`)
    expect(html).toContain(appConfig.brand.tagline)
  })
})
