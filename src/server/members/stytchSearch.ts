import type { MemberStatus } from '../store/identityStore'
import type { MemberSearch } from '../store/memberAdminStore'
import { adminErrors } from './adminError'

export interface StytchSearchBody {
  cursor?: string
  limit?: number
  query?: {
    operator: 'AND' | 'OR'
    operands?: { filter_name: string; filter_value: unknown }[]
  }
}

/** Stytch's `deleted` is this provider's `inactive` (a disabled member who can be reactivated). */
const STATUS: Record<string, MemberStatus> = { active: 'active', inactive: 'inactive', deleted: 'inactive' }

/**
 * The member search of the SDK (`organization.members.search`) as a store query: operands are
 * ANDed (OR is accepted with one operand, where it means the same); the cursor is an offset.
 */
export function memberSearchFromStytch(body: StytchSearchBody): MemberSearch {
  const search: MemberSearch = { limit: body.limit ?? 100, offset: Number(body.cursor ?? '0') }
  const operands = body.query?.operands ?? []
  if (body.query?.operator === 'OR' && operands.length > 1)
    throw adminErrors.badRequest('query.operator', 'OR is supported with one operand only; use AND.')
  operands.forEach((operand, i) => {
    const where = `query.operands.${i}.filter_value`
    const value = operand.filter_value
    const list = (): string[] => {
      if (
        !Array.isArray(value) ||
        value.length > 100 ||
        !value.every((v): v is string => typeof v === 'string' && v.length <= 254)
      )
        throw adminErrors.badRequest(where, `${operand.filter_name} takes a list of up to 100 strings.`)
      return value
    }
    const text = (): string => {
      if (typeof value !== 'string' || value.length > 254)
        throw adminErrors.badRequest(where, `${operand.filter_name} takes a string.`)
      return value
    }
    switch (operand.filter_name) {
      case 'member_ids':
        search.memberIds = list()
        break
      case 'member_emails':
        search.emails = list()
        break
      case 'member_email_fuzzy':
        search.text = text()
        break
      case 'member_mfa_phone_number_fuzzy':
        search.phone = text()
        break
      case 'member_roles':
        search.roles = list()
        break
      case 'statuses':
        search.statuses = list().map((s) => {
          const status = STATUS[s]
          if (!status)
            throw adminErrors.badRequest(where, `Unknown status "${s}" (active, inactive, deleted).`)
          return status
        })
        break
      case 'member_password_exists':
        if (typeof value !== 'boolean')
          throw adminErrors.badRequest(where, 'member_password_exists takes true or false.')
        search.passwordExists = value
        break
      default:
        throw adminErrors.badRequest(
          `query.operands.${i}.filter_name`,
          `Unknown filter ${operand.filter_name}.`,
        )
    }
  })
  return search
}
