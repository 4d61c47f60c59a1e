// Import boundaries (ARCHITECTURE.md "Folders"), held by ESLint's no-restricted-imports.
// Relative specifiers are matched by regular expressions built for each folder depth, so
// `../../app/toasts` is the shell from src/features/tables/x.ts and nothing else.
// tests/lint/boundaries.test.ts proves each rule fires and that allowed imports pass.

const LEAFLET = ['leaflet', 'react-leaflet', 'protomaps-leaflet']
const MAX_DEPTH = 6

export const MESSAGES = {
  generated:
    'Only src/shared/config reads src/generated: import config, its types and lookups from src/shared/config.',
  coreFramework: 'The core (src/shared) is framework-free: no React, Leaflet or Fastify.',
  coreBrowser: 'The core (src/shared) does not import a feature, the shell (src/app) or the server.',
  featureShell:
    'A feature does not import the shell (src/app): move what is shared into src/shared or the feature, or let the shell pass it in.',
  featureServer: 'A feature does not import the server (src/server).',
  serverBrowser: 'The server does not import browser code (src/features, src/app).',
  featureInner: 'Import another feature through its index.ts (../<feature>), not its inner files.',
  leaflet:
    'Only src/features/map imports leaflet, react-leaflet and protomaps-leaflet: use the highlight API of features/map/index.ts.',
  fire: 'The fire-behaviour core (src/fire) is pure TypeScript: it imports only src/shared, no framework, database or Node built-in.',
}

const up = (n) => `(\\.\\./){${n}}`
/** A top-level folder of src/ (or a file in it) from a file `depth` folders below src/. */
const srcFolder = (depth, folder) => `^${up(depth)}${folder}(/|$)`
const pkg = (name) => `^${name.replace('/', '\\/')}(/|$)`
const pattern = (regex, message) => ({ regex, message })

const generated = (depth) => pattern(srcFolder(depth, 'generated'), MESSAGES.generated)
const leaflet = LEAFLET.map((name) => pattern(pkg(name), MESSAGES.leaflet))

/** src/<area>/ + (depth - 1) folders + a file. */
const filesAt = (area, depth) => [`src/${area}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`]

function rule(patterns) {
  return { 'no-restricted-imports': ['error', { patterns }] }
}

function coreConfigs() {
  const framework = ['react', 'react-dom', 'fastify', '@fastify', ...LEAFLET].map((n) =>
    pattern(pkg(n), MESSAGES.coreFramework),
  )
  const out = []
  for (let depth = 1; depth <= MAX_DEPTH; depth++) {
    const base = [
      ...framework,
      ...['features', 'app', 'server'].map((f) => pattern(srcFolder(depth, f), MESSAGES.coreBrowser)),
    ]
    out.push({
      files: filesAt('shared', depth),
      ignores: ['src/shared/config/**'],
      rules: rule([...base, generated(depth)]),
    })
    if (depth >= 2)
      out.push({ files: [`src/shared/config/${'*/'.repeat(depth - 2)}*.{ts,tsx}`], rules: rule(base) })
  }
  return out
}

function featureConfigs() {
  const out = []
  for (let depth = 2; depth <= MAX_DEPTH; depth++) {
    // From a file `depth` folders below src/, `depth - 1` steps up reach src/features/.
    const inner = pattern(`^${up(depth - 1)}[^./][^/]*/(?!index$).+`, MESSAGES.featureInner)
    const base = [
      generated(depth),
      pattern(srcFolder(depth, 'app'), MESSAGES.featureShell),
      pattern(srcFolder(depth, 'server'), MESSAGES.featureServer),
      inner,
    ]
    const files = [`src/features/${'*/'.repeat(depth - 1)}*.{ts,tsx}`]
    out.push({
      files: files.map((f) => f.replace('src/features/*/', 'src/features/map/')),
      rules: rule(base),
    })
    out.push({ files, ignores: ['src/features/map/**'], rules: rule([...base, ...leaflet]) })
  }
  return out
}

function areaConfigs(area, extra = () => []) {
  const out = []
  for (let depth = 1; depth <= MAX_DEPTH; depth++) {
    out.push({ files: filesAt(area, depth), rules: rule([generated(depth), ...leaflet, ...extra(depth)]) })
  }
  return out
}

/** src/fire: only its own files and src/shared; no framework, database driver or Node built-in (it runs in workers and browsers). */
function fireConfigs() {
  const packages = [
    'react',
    'react-dom',
    'fastify',
    '@fastify',
    ...LEAFLET,
    'better-sqlite3',
    'pg',
    'node:[a-z_/]+',
  ]
  const builtins = [
    'fs',
    'path',
    'os',
    'worker_threads',
    'child_process',
    'http',
    'https',
    'net',
    'crypto',
    'url',
  ]
  const forbiddenPackages = [...packages, ...builtins].map((n) => pattern(pkg(n), MESSAGES.fire))
  const out = []
  for (let depth = 1; depth <= MAX_DEPTH; depth++) {
    // `depth` steps up reach src/: from there only shared/ and fire/ may follow.
    const otherFolder = pattern(`^${up(depth)}(?!(shared|fire)(/|$))`, MESSAGES.fire)
    out.push({ files: filesAt('fire', depth), rules: rule([...forbiddenPackages, otherFolder]) })
  }
  return out
}

const serverBrowser = (depth) =>
  ['features', 'app'].map((f) => pattern(srcFolder(depth, f), MESSAGES.serverBrowser))

/** Scripts and tests sit outside src/: any specifier through src/generated. */
const outside = {
  files: ['scripts/**/*.{ts,tsx,mjs}', 'tests/**/*.{ts,tsx}'],
  ignores: ['scripts/config/**', 'tests/config/**'],
  rules: rule([pattern('(^|/)src/generated(/|$)', MESSAGES.generated), ...leaflet]),
}

export const boundaries = [
  ...coreConfigs(),
  ...featureConfigs(),
  ...areaConfigs('app'),
  ...areaConfigs('server', serverBrowser),
  ...areaConfigs('demo'),
  ...fireConfigs(),
  outside,
]
