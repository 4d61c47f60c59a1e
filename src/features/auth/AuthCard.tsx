import { Callout, Card, H4 } from '@blueprintjs/core'
import type { ReactNode } from 'react'
import { appConfig } from '../../shared/config'
import logoUrl from './emberline-logo.svg'

/** The frame of the sign-in screens: brand, tagline (what the product is), the flow's error (role alert). */
export function AuthCard({
  title,
  error,
  children,
}: {
  title: string
  error: string | null
  children: ReactNode
}) {
  return (
    <div className="emberline-auth bp6-dark">
      <Card elevation={2}>
        <div className="emberline-auth-title">
          <img src={logoUrl} alt="" width={24} height={24} />
          <H4 style={{ margin: 0 }}>{appConfig.brand.name}</H4>
          <span className="bp6-text-muted">{title}</span>
        </div>
        <p className="bp6-text-muted" data-testid="auth-tagline" style={{ margin: '-8px 0 16px' }}>
          {appConfig.brand.tagline}
        </p>
        {error && (
          <Callout intent="danger" role="alert" data-testid="auth-error" style={{ marginBottom: 12 }}>
            {error}
          </Callout>
        )}
        {children}
      </Card>
    </div>
  )
}
