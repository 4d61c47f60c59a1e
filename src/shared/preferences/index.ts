export {
  defaultPreferences,
  resolvePreferences,
  validatePreferencesPatch,
  type MemberPreferences,
  type PreferenceDefinition,
  type PreferencesPatchResult,
} from './memberPreferences'
