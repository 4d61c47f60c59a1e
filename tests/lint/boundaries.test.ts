import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

// Each boundary of ARCHITECTURE.md "Folders": a fixture in the forbidden place fails lint with the
// rule's message, and the allowed import in the same place passes.
let eslint: ESLint

beforeAll(() => {
  eslint = new ESLint({
    cwd: process.cwd(),
    // The fixtures exist only as text: no type information for them (the type-aware promise
    // rules of the server's files are not what these tests hold).
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: {
        '@typescript-eslint/no-floating-promises': 'off',
        '@typescript-eslint/no-misused-promises': 'off',
      },
    },
  })
})

async function messages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x\n`, { filePath })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
}

const cases: { name: string; file: string; forbidden: string; allowed: string; message: RegExp }[] = [
  {
    name: 'the core imports React',
    file: 'src/shared/format/fixture.ts',
    forbidden: "import { useState as x } from 'react'",
    allowed: "import { appConfig as x } from '../config'",
    message: /The core \(src\/shared\) is framework-free/,
  },
  {
    name: 'the core imports Leaflet',
    file: 'src/shared/config/fixture.ts',
    forbidden: "import x from 'leaflet'",
    allowed: "import { layersConfig as x } from '../../generated/config'",
    message: /The core \(src\/shared\) is framework-free/,
  },
  {
    name: 'the core imports Fastify',
    file: 'src/shared/fixture.ts',
    forbidden: "import x from 'fastify'",
    allowed: "import { parseFilters as x } from './filters'",
    message: /The core \(src\/shared\) is framework-free/,
  },
  {
    name: 'the core imports a feature',
    file: 'src/shared/risk/fixture.ts',
    forbidden: "import { MapScreen as x } from '../../features/map'",
    allowed: "import { riskLabel as x } from './riskLabel'",
    message: /The core \(src\/shared\) does not import a feature, the shell/,
  },
  {
    name: 'the core imports the shell',
    file: 'src/shared/fixture.ts',
    forbidden: "import { App as x } from '../app/App'",
    allowed: "import { colorRamp as x } from './colorRamp'",
    message: /The core \(src\/shared\) does not import a feature, the shell/,
  },
  {
    name: 'a feature imports the shell',
    file: 'src/features/tables/fixture.ts',
    forbidden: "import { toaster as x } from '../../app/toasts'",
    allowed: "import { appConfig as x } from '../../shared/config'",
    message: /A feature does not import the shell/,
  },
  {
    name: 'a feature imports the server',
    file: 'src/features/operations/alerts/fixture.ts',
    forbidden: "import { buildApp as x } from '../../../server/app'",
    allowed: "import { useFetched as x } from '../shared/useFetched'",
    message: /A feature does not import the server/,
  },
  {
    name: 'the fire core imports the server',
    file: 'src/fire/fixture.ts',
    forbidden: "import { buildApp as x } from '../server/app'",
    allowed: "import { fuelModelsConfig as x } from '../shared/config'",
    message: /The fire-behaviour core \(src\/fire\) is pure TypeScript/,
  },
  {
    name: 'the fire core reads src/generated',
    file: 'src/fire/crown/fixture.ts',
    forbidden: "import { fuelModelsConfig as x } from '../../generated/config'",
    allowed: "import { surfaceFire as x } from '../surfaceFire'",
    message: /The fire-behaviour core \(src\/fire\) is pure TypeScript/,
  },
  {
    name: 'the fire core imports a database driver',
    file: 'src/fire/fixture.ts',
    forbidden: "import x from 'better-sqlite3'",
    allowed: "import { findFuelModel as x } from './fuelModels'",
    message: /The fire-behaviour core \(src\/fire\) is pure TypeScript/,
  },
  {
    name: 'the fire core imports a Node built-in',
    file: 'src/fire/fixture.ts',
    forbidden: "import x from 'node:fs'",
    allowed: "import { normalizeDeg as x } from './units'",
    message: /The fire-behaviour core \(src\/fire\) is pure TypeScript/,
  },
  {
    name: 'the server imports a feature',
    file: 'src/server/data/fixture.ts',
    forbidden: "import { formatCell as x } from '../../features/tables'",
    allowed: "import { parseFilters as x } from '../../shared/filters'",
    message: /The server does not import browser code/,
  },
  {
    name: 'the server imports the shell',
    file: 'src/server/fixture.ts',
    forbidden: "import { App as x } from '../app/App'",
    allowed: "import { buildApp as x } from './app'",
    message: /The server does not import browser code/,
  },
  {
    name: "a feature imports another feature's inner file",
    file: 'src/features/layers/fixture.ts',
    forbidden: "import { drawList as x } from '../map/render/drawList'",
    allowed: "import { MapScreen as x } from '../map'",
    message: /Import another feature through its index.ts/,
  },
  {
    name: "a nested feature file imports another feature's inner file",
    file: 'src/features/operations/psps/fixture.ts',
    forbidden: "import { authFetch as x } from '../../session/authFetch'",
    allowed: "import { authFetch as x } from '../../session/index'",
    message: /Import another feature through its index.ts/,
  },
  {
    name: 'a feature outside features/map imports leaflet',
    file: 'src/features/tables/fixture.ts',
    forbidden: "import x from 'leaflet'",
    allowed: "import { useMapHighlight as x } from '../map'",
    message: /Only src\/features\/map imports leaflet/,
  },
  {
    name: 'a feature outside features/map imports react-leaflet',
    file: 'src/features/operations/shared/fixture.ts',
    forbidden: "import { useMap as x } from 'react-leaflet'",
    allowed: "import { useMapHighlight as x } from '../../map'",
    message: /Only src\/features\/map imports leaflet/,
  },
  {
    name: 'the shell imports protomaps-leaflet',
    file: 'src/app/fixture.ts',
    forbidden: "import { leafletLayer as x } from 'protomaps-leaflet'",
    allowed: "import { MapScreen as x } from '../features/map'",
    message: /Only src\/features\/map imports leaflet/,
  },
  {
    name: 'a feature reads src/generated',
    file: 'src/features/map/render/fixture.ts',
    forbidden: "import { layersConfig as x } from '../../../generated/config'",
    allowed: "import { layersConfig as x } from '../../../shared/config'",
    message: /Only src\/shared\/config reads src\/generated/,
  },
  {
    name: 'the server reads src/generated',
    file: 'src/server/operations/fixture.ts',
    forbidden: "import type { AlertRule as x } from '../../generated/types'",
    allowed: "import type { AlertRule as x } from '../../shared/config'",
    message: /Only src\/shared\/config reads src\/generated/,
  },
  {
    name: 'a script reads src/generated',
    file: 'scripts/fixture.ts',
    forbidden: "import { feedsConfig as x } from '../src/generated/config'",
    allowed: "import { feedsConfig as x } from '../src/shared/config'",
    message: /Only src\/shared\/config reads src\/generated/,
  },
  {
    name: 'a module of the core outside src/shared/config reads src/generated',
    file: 'src/shared/risk/fixture.ts',
    forbidden: "import { appConfig as x } from '../../generated/config'",
    allowed: "import { appConfig as x } from '../config'",
    message: /Only src\/shared\/config reads src\/generated/,
  },
]

describe('import boundaries in lint', () => {
  it.each(cases)('fails when $name', async ({ file, forbidden, message }) => {
    expect(await messages(file, forbidden)).toEqual([expect.stringMatching(message)])
  })

  it.each(cases)('passes the allowed import where $name is forbidden', async ({ file, allowed }) => {
    expect(await messages(file, allowed)).toEqual([])
  })

  it('lets the map import leaflet and the config compiler read src/generated', async () => {
    expect(await messages('src/features/map/render/fixture.ts', "import x from 'leaflet'")).toEqual([])
    expect(
      await messages(
        'scripts/config/fixture.ts',
        "import { appConfig as x } from '../../src/generated/config'",
      ),
    ).toEqual([])
  })
})
