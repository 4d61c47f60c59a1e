import { isAuthorized } from '../identity/rbac'
import type { RbacPolicy } from '../identity/settings'
import { adminErrors } from './adminError'

/** The member acting through the administration endpoints. */
export interface Actor {
  memberId: string
  roles: readonly string[]
  ip: string
}

/**
 * The one permission check of member administration (spec §6): allowed when any of the actor's
 * roles grants `action` on `resource`, or `*` on it, in the configured policy; otherwise 403.
 */
export function requirePermission(policy: RbacPolicy, actor: Actor, resource: string, action: string): void {
  if (!isAuthorized(policy, actor.roles, resource, action)) throw adminErrors.forbidden(resource, action)
}
