import { H2 } from '@blueprintjs/core'
import { useMemo, useState } from 'react'
import { AuditLogPanel } from './AuditLogPanel'
import { InviteForm } from './InviteForm'
import { MachineClientsPanel } from './MachineClientsPanel'
import { MembersPanel } from './MembersPanel'
import { organizationClient, type OrganizationClient } from './organizationApi'

export interface OrganizationPermissions {
  readonly members: readonly string[]
  readonly sessions: readonly string[]
  readonly audit: readonly string[]
  /** Machine clients (M2M): read, create, update, delete. */
  readonly m2m?: readonly string[]
}

/** True when the member may see the Organization section at all (their roles grant members:read). */
export const showsOrganization = (permissions: Readonly<Record<string, readonly string[]>>) =>
  (permissions.members ?? []).includes('read')

/**
 * /Settings → Organization, for members whose roles grant `members:read` (administrators): the
 * members list with search and per-member actions, invitations, machine clients and the audit log. The server
 * checks every action again; the section only hides what the member's roles do not grant.
 */
export function OrganizationSection({
  selfId,
  permissions,
  client: given,
}: {
  selfId: string
  permissions: OrganizationPermissions
  client?: OrganizationClient
}) {
  const client = useMemo(() => given ?? organizationClient(), [given])
  // Bumped after an invitation so the members list shows the new member.
  const [version, setVersion] = useState(0)
  const can = (action: string) => permissions.members.includes(action)
  return (
    <section aria-labelledby="settings-organization" data-testid="settings-organization">
      <H2 id="settings-organization">Organization</H2>
      <MembersPanel
        client={client}
        selfId={selfId}
        version={version}
        canUpdate={can('update')}
        canDisable={can('delete')}
        canRevoke={permissions.sessions.includes('revoke')}
      />
      {can('create') ? <InviteForm client={client} onInvited={() => setVersion((v) => v + 1)} /> : null}
      {(permissions.m2m ?? []).includes('read') ? (
        <MachineClientsPanel actions={permissions.m2m ?? []} />
      ) : null}
      {permissions.audit.includes('read') ? <AuditLogPanel client={client} version={version} /> : null}
    </section>
  )
}
