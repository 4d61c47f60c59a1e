export { ingestRoutes, type IngestRoutesOptions } from './ingestRoutes'
