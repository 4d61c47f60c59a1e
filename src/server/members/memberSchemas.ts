/**
 * JSON Schemas of the member administration requests (SDK endpoints and /api/admin). Unknown names
 * are refused (`propertyNames`: 400 naming them) rather than dropped, so a misspelt field such as
 * `role` never falls back silently to a default.
 */
const id = { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' } as const
const phone = { type: 'string', minLength: 1, maxLength: 32 } as const
const roleList = {
  type: 'array',
  maxItems: 50,
  items: { type: 'string', minLength: 1, maxLength: 128 },
} as const

/** No query parameters (any given are dropped before the handler). */
export const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const

/** A request that acts on its path only (the SDK sends `{}` or nothing). */
export const emptyBody = { type: 'object', additionalProperties: false, properties: {} } as const

export const memberParams = {
  type: 'object',
  required: ['memberId'],
  properties: { memberId: id },
} as const

export const passwordParams = {
  type: 'object',
  required: ['passwordId'],
  properties: { passwordId: id },
} as const

export const searchBody = {
  type: 'object',
  propertyNames: { enum: ['cursor', 'limit', 'query'] },
  additionalProperties: false,
  properties: {
    cursor: { type: 'string', pattern: '^[0-9]{1,9}$' },
    limit: { type: 'integer', minimum: 1, maximum: 1000 },
    query: {
      type: 'object',
      required: ['operator'],
      additionalProperties: false,
      properties: {
        operator: { type: 'string', enum: ['AND', 'OR'] },
        operands: {
          type: 'array',
          maxItems: 20,
          items: {
            type: 'object',
            required: ['filter_name', 'filter_value'],
            properties: {
              filter_name: {
                type: 'string',
                enum: [
                  'member_ids',
                  'member_emails',
                  'member_email_fuzzy',
                  'statuses',
                  'member_mfa_phone_number_fuzzy',
                  'member_password_exists',
                  'member_roles',
                ],
              },
              // Typed per filter in stytchSearch (a schema union would be coerced by Fastify's Ajv).
              filter_value: {},
            },
          },
        },
      },
    },
  },
} as const

export interface UpdateBody {
  member_id?: string
  name?: string
  roles?: string[]
  mfa_phone_number?: string
  preserve_existing_sessions?: boolean
}

export const updateBody = {
  type: 'object',
  propertyNames: { enum: ['member_id', 'name', 'roles', 'mfa_phone_number', 'preserve_existing_sessions'] },
  additionalProperties: false,
  properties: {
    member_id: id,
    name: { type: 'string', maxLength: 200 },
    roles: roleList,
    mfa_phone_number: phone,
    preserve_existing_sessions: { type: 'boolean' },
  },
} as const

export interface InviteBody {
  email: string
  name?: string
  roles?: string[]
  phone?: string
}

export const inviteBody = {
  type: 'object',
  propertyNames: { enum: ['email', 'name', 'roles', 'phone'] },
  required: ['email'],
  additionalProperties: false,
  properties: {
    email: { type: 'string', minLength: 3, maxLength: 254 },
    name: { type: 'string', maxLength: 200 },
    roles: roleList,
    phone,
  },
} as const

export interface AuditQuery {
  actor?: string
  action?: string
  member?: string
  from?: string
  to?: string
  page: number
  limit: number
}

export const auditQuery = {
  type: 'object',
  propertyNames: { enum: ['actor', 'action', 'member', 'from', 'to', 'page', 'limit'] },
  additionalProperties: false,
  properties: {
    actor: id,
    action: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9_.]*$' },
    member: id,
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
    page: { type: 'integer', minimum: 1, maximum: 100000, default: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
  },
} as const
