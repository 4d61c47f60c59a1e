import { appConfig } from '../../shared/config'

export interface RbacPermission {
  resource_id: string
  actions: string[]
}
export interface RbacRole {
  role_id: string
  description: string
  permissions: RbacPermission[]
}
export interface RbacResource {
  resource_id: string
  description: string
  actions: string[]
}
export interface RbacPolicy {
  roles: RbacRole[]
  resources: RbacResource[]
}

/** Everything the identity provider reads from config/app.yaml, with defaults for optional keys. */
export interface IdentitySettings {
  productName: string
  publicToken: string
  organizationId: string
  organizationName: string
  organizationSlug: string
  projectId: string
  jwtMinutes: number
  resetPath: string
  passwordMinLength: number
  throttle: {
    maxFailures: number
    ipMaxFailures: number
    memberMaxFailures: number
    windowMinutes: number
    lockMinutes: number
  }
  otp: {
    digits: number
    expiryMinutes: number
    maxAttempts: number
    maxSends: number
    maxSendsPerMemberHour: number
    maxSendsPerPhoneHour: number
  }
  resetTokenExpiryMinutes: number
  /**
   * Reset e-mails (docs/identity.md, "Reset e-mails"): at most `perNetwork` per e-mail address and
   * requesting network in `throttle.windowMinutes`, and `perEmail` per e-mail address from all
   * networks in `perEmailMinutes`, a cap that does not hold requests from a network the member
   * signed in from within `knownNetworkDays`. (The per-network cap is `throttle.ipMaxFailures`.)
   */
  resetMail: { perNetwork: number; perEmail: number; perEmailMinutes: number; knownNetworkDays: number }
  /** Minutes an invitation's (or an administrator's reset's) set-password link stays valid. */
  inviteExpiryMinutes: number
  sessionMinutes: { login: number; sms: number; reset: number; intermediate: number }
  /** Machine clients (Stytch M2M): access-token lifetime and the cap of active clients. */
  m2m: { tokenMinutes: number; maxClients: number }
  rbac: RbacPolicy & { defaultRoles: string[]; firstMemberRoles: string[] }
}

interface IdentityConfigShape {
  publicToken: string
  organizationId: string
  organizationName?: string
  organizationSlug?: string
  projectId?: string
  jwtMinutes?: number
  resetPath?: string
  passwordMinLength?: number
  throttle?: {
    maxFailures?: number
    ipMaxFailures?: number
    memberMaxFailures?: number
    windowMinutes?: number
    lockMinutes?: number
  }
  otp?: {
    digits?: number
    expiryMinutes?: number
    maxAttempts?: number
    maxSends?: number
    maxSendsPerMemberHour?: number
    maxSendsPerPhoneHour?: number
  }
  resetTokenExpiryMinutes?: number
  resetMail?: { perNetwork?: number; perEmail?: number; perEmailMinutes?: number; knownNetworkDays?: number }
  inviteExpiryMinutes?: number
  m2m?: { tokenMinutes?: number; maxClients?: number }
  rbac?: {
    roles?: readonly { role_id: string; description?: string; permissions?: readonly RbacPermissionShape[] }[]
    resources?: readonly { resource_id: string; description?: string; actions?: readonly string[] }[]
    defaultRoles?: readonly string[]
    firstMemberRoles?: readonly string[]
  }
}
interface RbacPermissionShape {
  resource_id: string
  actions: readonly string[]
}
interface SessionConfigShape {
  loginMinutes?: number
  smsMinutes?: number
  resetMinutes?: number
  intermediateMinutes?: number
}

/** Builds the settings from a config object shaped like appConfig (tests pass modified copies). */
export function identitySettingsFrom(
  identity: IdentityConfigShape,
  session: SessionConfigShape,
  productName = 'Emberline',
): IdentitySettings {
  const rbac = identity.rbac ?? {}
  const projectSuffix = identity.publicToken.replace(/^public-token-(test|live)-/, '')
  const live = identity.publicToken.startsWith('public-token-live-')
  return {
    productName,
    publicToken: identity.publicToken,
    organizationId: identity.organizationId,
    organizationName: identity.organizationName ?? 'Organization',
    organizationSlug: identity.organizationSlug ?? 'organization',
    projectId: identity.projectId ?? `project-${live ? 'live' : 'test'}-${projectSuffix}`,
    jwtMinutes: identity.jwtMinutes ?? 5,
    resetPath: identity.resetPath ?? '/login/Reset',
    passwordMinLength: identity.passwordMinLength ?? 10,
    throttle: {
      maxFailures: identity.throttle?.maxFailures ?? 10,
      ipMaxFailures: identity.throttle?.ipMaxFailures ?? 50,
      memberMaxFailures: identity.throttle?.memberMaxFailures ?? 10 * (identity.throttle?.maxFailures ?? 10),
      windowMinutes: identity.throttle?.windowMinutes ?? 15,
      lockMinutes: identity.throttle?.lockMinutes ?? 15,
    },
    otp: {
      digits: identity.otp?.digits ?? 6,
      expiryMinutes: identity.otp?.expiryMinutes ?? 5,
      maxAttempts: identity.otp?.maxAttempts ?? 5,
      maxSends: identity.otp?.maxSends ?? 5,
      maxSendsPerMemberHour: identity.otp?.maxSendsPerMemberHour ?? 10,
      maxSendsPerPhoneHour: identity.otp?.maxSendsPerPhoneHour ?? 10,
    },
    resetTokenExpiryMinutes: identity.resetTokenExpiryMinutes ?? 30,
    resetMail: {
      perNetwork: identity.resetMail?.perNetwork ?? 3,
      perEmail: identity.resetMail?.perEmail ?? 10,
      perEmailMinutes: identity.resetMail?.perEmailMinutes ?? 60,
      knownNetworkDays: identity.resetMail?.knownNetworkDays ?? 30,
    },
    inviteExpiryMinutes: identity.inviteExpiryMinutes ?? 10_080,
    m2m: { tokenMinutes: identity.m2m?.tokenMinutes ?? 60, maxClients: identity.m2m?.maxClients ?? 50 },
    sessionMinutes: {
      login: session.loginMinutes ?? 1440,
      sms: session.smsMinutes ?? 1440,
      reset: session.resetMinutes ?? 60,
      intermediate: session.intermediateMinutes ?? 10,
    },
    rbac: {
      roles: (rbac.roles ?? []).map((r) => ({
        role_id: r.role_id,
        description: r.description ?? '',
        permissions: (r.permissions ?? []).map((p) => ({
          resource_id: p.resource_id,
          actions: [...p.actions],
        })),
      })),
      resources: (rbac.resources ?? []).map((r) => ({
        resource_id: r.resource_id,
        description: r.description ?? '',
        actions: [...(r.actions ?? [])],
      })),
      defaultRoles: [...(rbac.defaultRoles ?? ['stytch_member'])],
      firstMemberRoles: [...(rbac.firstMemberRoles ?? rbac.defaultRoles ?? ['stytch_member'])],
    },
  }
}

/** The identity settings of this build (config/app.yaml). */
export const identitySettings: IdentitySettings = identitySettingsFrom(
  appConfig.identity,
  appConfig.session,
  appConfig.brand.name,
)
