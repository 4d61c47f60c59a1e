import type { RbacPolicy } from './settings'

/**
 * Spec §6: a caller is authorised when any of its roles grants the action, or the
 * wildcard '*', on the resource. Unknown roles and resources grant nothing.
 */
export function isAuthorized(
  policy: RbacPolicy,
  roles: readonly string[],
  resourceId: string,
  action: string,
): boolean {
  return policy.roles.some(
    (role) =>
      roles.includes(role.role_id) &&
      role.permissions.some(
        (p) => p.resource_id === resourceId && (p.actions.includes(action) || p.actions.includes('*')),
      ),
  )
}

/** Every (resource, action) a set of roles grants, wildcards expanded over the resource's actions. */
export function permissionsOf(policy: RbacPolicy, roles: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const resource of policy.resources) {
    const actions = resource.actions.filter((a) => isAuthorized(policy, roles, resource.resource_id, a))
    if (actions.length > 0) out[resource.resource_id] = actions
  }
  return out
}

/** Role ids that are not defined in the policy (for the admin CLI). */
export function unknownRoles(policy: RbacPolicy, roles: readonly string[]): string[] {
  return roles.filter((r) => !policy.roles.some((role) => role.role_id === r))
}
