import { appConfig } from '../config'

/** One display preference of appConfig.preferences. */
export interface PreferenceDefinition {
  readonly id: string
  readonly label: string
  readonly description?: string
  readonly default: string
  readonly options: readonly { readonly value: string; readonly label: string }[]
}

/** A member's display preferences: preference id → chosen option value. */
export type MemberPreferences = Readonly<Record<string, string>>

export type PreferencesPatchResult =
  | { readonly ok: true; readonly patch: MemberPreferences }
  | { readonly ok: false; readonly parameter: string; readonly message: string }

const configured: readonly PreferenceDefinition[] = appConfig.preferences

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function allows(definition: PreferenceDefinition, value: unknown): value is string {
  return typeof value === 'string' && definition.options.some((option) => option.value === value)
}

/** Every preference at its configured default. */
export function defaultPreferences(
  definitions: readonly PreferenceDefinition[] = configured,
): MemberPreferences {
  return Object.fromEntries(definitions.map((d) => [d.id, d.default]))
}

/**
 * Stored values over the defaults. Values no longer allowed (an option or preference removed
 * from config) fall back to the default, so a config change never breaks a member's settings.
 */
export function resolvePreferences(
  stored: unknown,
  definitions: readonly PreferenceDefinition[] = configured,
): MemberPreferences {
  const saved = isObject(stored) ? stored : {}
  return Object.fromEntries(
    definitions.map((d) => {
      const value = saved[d.id]
      return [d.id, allows(d, value) ? value : d.default]
    }),
  )
}

/** Checks a partial update: an object of known preference ids, each set to one of its options. */
export function validatePreferencesPatch(
  body: unknown,
  definitions: readonly PreferenceDefinition[] = configured,
): PreferencesPatchResult {
  if (!isObject(body))
    return { ok: false, parameter: 'body', message: 'body must be an object of preferences' }
  const patch: Record<string, string> = {}
  for (const [id, value] of Object.entries(body)) {
    const definition = definitions.find((d) => d.id === id)
    if (!definition) return { ok: false, parameter: id, message: `${id} is not a preference` }
    if (!allows(definition, value)) {
      const choices = definition.options.map((o) => o.value).join(', ')
      return { ok: false, parameter: id, message: `${id} must be one of: ${choices}` }
    }
    patch[id] = value
  }
  return { ok: true, patch }
}
