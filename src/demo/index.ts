// The demo data and synthetic grids: used by `npm run seed`, tests, benchmarks and the server's
// first start (src/server/main.ts imports this file and nothing else under src/demo).
export { isSeeded, seedDemo, SEED_META_KEY, type SeedOptions } from './seedDemo'
export { DEFAULT_BUILDINGS, DEFAULT_SEED } from './generateDemo'
