import { describe, expect, it } from 'vitest'
import { isAuthorized, permissionsOf, unknownRoles } from './rbac'
import type { RbacPolicy } from './settings'

const policy: RbacPolicy = {
  resources: [
    { resource_id: 'data', description: '', actions: ['read', 'write'] },
    { resource_id: 'members', description: '', actions: ['read', 'delete'] },
  ],
  roles: [
    { role_id: 'viewer', description: '', permissions: [{ resource_id: 'data', actions: ['read'] }] },
    { role_id: 'admin', description: '', permissions: [{ resource_id: 'members', actions: ['*'] }] },
  ],
}

describe('RBAC (spec §6)', () => {
  it('grants an action a role lists', () => {
    expect(isAuthorized(policy, ['viewer'], 'data', 'read')).toBe(true)
    expect(isAuthorized(policy, ['viewer'], 'data', 'write')).toBe(false)
  })

  it('grants every action on a resource with a wildcard, and only on that resource', () => {
    expect(isAuthorized(policy, ['admin'], 'members', 'delete')).toBe(true)
    expect(isAuthorized(policy, ['admin'], 'data', 'read')).toBe(false)
  })

  it('authorises when any role grants it; unknown roles grant nothing', () => {
    expect(isAuthorized(policy, ['ghost', 'viewer'], 'data', 'read')).toBe(true)
    expect(isAuthorized(policy, ['ghost'], 'data', 'read')).toBe(false)
    expect(isAuthorized(policy, [], 'data', 'read')).toBe(false)
  })

  it('lists effective permissions and unknown roles', () => {
    expect(permissionsOf(policy, ['viewer', 'admin'])).toEqual({
      data: ['read'],
      members: ['read', 'delete'],
    })
    expect(unknownRoles(policy, ['viewer', 'root'])).toEqual(['root'])
  })
})
