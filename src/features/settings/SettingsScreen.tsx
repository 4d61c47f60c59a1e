import { H1 } from '@blueprintjs/core'
import { AlertSubscriptionSection } from './AlertSubscriptionSection'
import { FireRunsSection } from './FireRunsSection'
import { screenTitle } from '../../shared/config'
import { OrganizationSection, showsOrganization } from './OrganizationSection'
import { PasswordSection } from './PasswordSection'
import { PreferencesSection } from './PreferencesSection'
import { ProfileSection } from './ProfileSection'
import { SessionSection } from './SessionSection'
import { fetchPreferences, fetchProfile } from './settingsApi'
import { useLoad } from './useLoad'
import './settings.css'

const loadProfile = () => fetchProfile()
const loadPreferences = () => fetchPreferences()

/**
 * /Settings: profile and roles, session expiry, password, sign out everywhere, display preferences,
 * alert subscriptions, and for administrators the Organization section (members, invitations, audit).
 */
export function SettingsScreen() {
  const [profile] = useLoad(loadProfile)
  const [preferences, setPreferences] = useLoad(loadPreferences)
  const timeZone = preferences.state === 'ready' ? preferences.value.timeZoneDisplay : undefined
  return (
    <main className="emberline-settings" aria-labelledby="settings-title">
      <H1 id="settings-title">{screenTitle('/Settings')}</H1>
      <ProfileSection profile={profile} />
      <SessionSection timeZonePreference={timeZone} />
      <PasswordSection />
      <PreferencesSection preferences={preferences} onSaved={setPreferences} />
      <AlertSubscriptionSection />
      <FireRunsSection />
      {profile.state === 'ready' && showsOrganization(profile.value.permissions) ? (
        <OrganizationSection
          selfId={profile.value.memberId}
          permissions={{
            members: profile.value.permissions.members ?? [],
            sessions: profile.value.permissions.sessions ?? [],
            audit: profile.value.permissions.audit ?? [],
            m2m: profile.value.permissions.m2m_clients ?? [],
          }}
        />
      ) : null}
    </main>
  )
}
