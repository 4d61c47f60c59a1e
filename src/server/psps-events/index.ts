export { pspsEventRoutes, type PspsEventRoutesOptions, type PspsEventsConfig } from './pspsEventRoutes'
