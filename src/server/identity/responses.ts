import type { MemberRecord, SessionRecord } from '../store/identityStore'
import type { IdentitySettings } from './settings'

const iso = (ms: number) => new Date(ms).toISOString()

/** Stytch `organization` object for the one organization the provider serves. */
export function organizationJson(s: IdentitySettings) {
  return {
    organization_id: s.organizationId,
    organization_name: s.organizationName,
    organization_slug: s.organizationSlug,
    organization_logo_url: '',
    trusted_metadata: {},
    sso_default_connection_id: null,
    sso_jit_provisioning: 'NOT_ALLOWED',
    sso_jit_provisioning_allowed_connections: [],
    sso_active_connections: [],
    scim_active_connection: null,
    email_allowed_domains: [],
    email_jit_provisioning: 'NOT_ALLOWED',
    email_invites: 'NOT_ALLOWED',
    oauth_tenant_jit_provisioning: 'NOT_ALLOWED',
    allowed_oauth_tenants: {},
    auth_methods: 'RESTRICTED',
    allowed_auth_methods: ['password'],
    mfa_methods: 'RESTRICTED',
    allowed_mfa_methods: ['sms_otp'],
    mfa_policy: 'REQUIRED_FOR_ALL',
  }
}

/** Stytch `member` object; never carries the password hash. */
export function memberJson(m: MemberRecord) {
  return {
    organization_id: m.organizationId,
    member_id: m.memberId,
    email_address: m.email,
    email_address_verified: true,
    retired_email_addresses: [],
    status: m.status,
    name: m.name,
    trusted_metadata: {},
    untrusted_metadata: {},
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
    sso_registrations: [],
    is_breakglass: false,
    is_admin: m.roles.includes('stytch_admin'),
    member_password_id: m.passwordId ?? '',
    mfa_enrolled: Boolean(m.phone),
    mfa_phone_number: m.phone ?? '',
    mfa_phone_number_verified: Boolean(m.phone),
    roles: m.roles.map((role_id) => ({ role_id, sources: [{ type: 'direct_assignment', details: {} }] })),
    default_mfa_method: m.phone ? 'sms_otp' : '',
    totp_registration_id: '',
    oauth_registrations: [],
  }
}

/** Stytch `member_session` object. */
export function memberSessionJson(session: SessionRecord, member: MemberRecord, s: IdentitySettings) {
  return {
    member_session_id: session.sessionId,
    member_id: session.memberId,
    organization_id: s.organizationId,
    organization_slug: s.organizationSlug,
    started_at: iso(session.startedAt),
    last_accessed_at: iso(session.lastAccessedAt),
    expires_at: iso(session.expiresAt),
    authentication_factors: session.factors,
    roles: member.roles,
    custom_claims: {},
  }
}

/** Project bootstrap (reference §5): captcha and DFP off, password_config present, RBAC policy. */
export function bootstrapJson(s: IdentitySettings, projectName: string) {
  return {
    project_name: projectName,
    disable_sdk_watermark: true,
    cname_domain: null,
    email_domains: [],
    captcha_settings: { enabled: false },
    pkce_required_for_email_magic_links: false,
    pkce_required_for_password_resets: true,
    pkce_required_for_oauth: false,
    pkce_required_for_sso: false,
    slug_pattern: null,
    create_organization_enabled: false,
    password_config: null,
    dfp_protected_auth_enabled: false,
    rbac_policy: { roles: s.rbac.roles, resources: s.rbac.resources, scopes: [] },
    siwe_required_for_crypto_wallets: false,
    vertical: 'B2B',
  }
}
