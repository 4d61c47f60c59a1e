import { Callout, H2, Spinner, Tag } from '@blueprintjs/core'
import { appConfig } from '../../shared/config'
import type { Profile } from './settingsApi'
import type { Load } from './useLoad'

/** The signed-in member's name, e-mail, phone, organization and roles. */
export function ProfileSection({ profile }: { profile: Load<Profile> }) {
  return (
    <section aria-labelledby="settings-profile" data-testid="settings-profile">
      <H2 id="settings-profile">Profile</H2>
      {profile.state === 'loading' ? <Spinner size={20} /> : null}
      {profile.state === 'failed' ? <Callout intent="danger">{profile.message}</Callout> : null}
      {profile.state === 'ready' ? (
        <dl className="emberline-settings-list">
          <dt>Name</dt>
          <dd>{profile.value.name ?? '—'}</dd>
          <dt>E-mail</dt>
          <dd data-testid="settings-email">{profile.value.email ?? '—'}</dd>
          <dt>Phone</dt>
          <dd>{profile.value.phone ?? '—'}</dd>
          <dt>Organization</dt>
          <dd>
            {profile.value.organizationId === appConfig.identity.organizationId
              ? appConfig.identity.organizationName
              : profile.value.organizationId}
          </dd>
          <dt>Roles</dt>
          <dd data-testid="settings-roles">
            {profile.value.roles.length === 0
              ? 'None'
              : profile.value.roles.map((role) => (
                  <Tag key={role} minimal className="emberline-settings-role">
                    {role}
                  </Tag>
                ))}
          </dd>
        </dl>
      ) : null}
    </section>
  )
}
