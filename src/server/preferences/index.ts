export { preferencesRoutes, type PreferencesRoutesOptions } from './preferencesRoutes'
