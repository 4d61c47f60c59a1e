import { Callout, H2, Radio, RadioGroup, Spinner } from '@blueprintjs/core'
import { useState } from 'react'
import { appConfig } from '../../shared/config'
import type { MemberPreferences } from '../../shared/preferences'
import { savePreferences } from './settingsApi'
import type { Load } from './useLoad'

/** Display preferences from appConfig.preferences, saved per member as soon as one changes. */
export function PreferencesSection({
  preferences,
  onSaved,
}: {
  preferences: Load<MemberPreferences>
  onSaved: (next: MemberPreferences) => void
}) {
  const [saving, setSaving] = useState<string | null>(null)
  // The choice being saved shows at once; it reverts if saving fails.
  const [pending, setPending] = useState<{ id: string; value: string } | null>(null)
  const [error, setError] = useState<string | null>(null)

  async function choose(id: string, value: string) {
    setSaving(id)
    setPending({ id, value })
    setError(null)
    try {
      onSaved(await savePreferences({ [id]: value }))
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    } finally {
      setSaving(null)
      setPending(null)
    }
  }

  return (
    <section aria-labelledby="settings-preferences" data-testid="settings-preferences">
      <H2 id="settings-preferences">Display preferences</H2>
      {preferences.state === 'loading' ? <Spinner size={20} /> : null}
      {preferences.state === 'failed' ? <Callout intent="danger">{preferences.message}</Callout> : null}
      {preferences.state === 'ready'
        ? appConfig.preferences.map((definition) => (
            <RadioGroup
              key={definition.id}
              name={definition.id}
              label={
                <>
                  {definition.label}
                  <span className="bp6-text-muted emberline-settings-hint">{definition.description}</span>
                </>
              }
              disabled={saving !== null}
              selectedValue={
                pending?.id === definition.id
                  ? pending.value
                  : (preferences.value[definition.id] ?? definition.default)
              }
              onChange={(event) => void choose(definition.id, event.currentTarget.value)}
            >
              {definition.options.map((option) => (
                <Radio key={option.value} value={option.value} label={option.label} />
              ))}
            </RadioGroup>
          ))
        : null}
      {error ? <Callout intent="danger">{error}</Callout> : null}
    </section>
  )
}
