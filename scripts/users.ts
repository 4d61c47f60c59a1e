// Admin CLI for identity members: `npm run users -- add|list|disable|enable|reset-password|set-phone|set-roles|audit`.
import fs from 'node:fs'
import path from 'node:path'
import { runUsersCli } from '../src/server/identity/usersCli'
import { openAccountsDb } from '../src/server/store/accountsDb'
import { defaultCatalog } from '../src/server/store/catalog'
import { openAppStoreOrExit, StoreSetupError, storeSettings } from '../src/server/store/openAppStore'
import { STORE_FILE } from '../src/server/store/sqliteStore'

const argv = process.argv.slice(2)
const at = argv.findIndex((a) => a === '--data-dir' || a.startsWith('--data-dir='))
let dataDir = process.env.DATA_DIR ?? './var'
if (at >= 0) {
  const arg = argv[at] ?? ''
  dataDir = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (argv[at + 1] ?? dataDir)
  argv.splice(at, arg.includes('=') ? 1 : 2)
}
const print = (line: string) => process.stdout.write(`${line}\n`)
let kind: 'sqlite' | 'postgres'
try {
  kind = storeSettings(process.env, dataDir).kind
} catch (err) {
  if (!(err instanceof StoreSetupError)) throw err
  process.stderr.write(`emberline: ${err.message}\n`)
  process.exit(1)
}
let code: number
if (kind === 'postgres') {
  // STORE=postgres with DATABASE_URL: the members every server shares.
  const opened = await openAppStoreOrExit(process.env, defaultCatalog(), { dataDir })
  code = await runUsersCli(argv, { db: opened.store, print })
  await opened.store.close()
} else {
  fs.mkdirSync(dataDir, { recursive: true })
  // Members live in the accounts database; a store from before it moves them there first.
  const db = openAccountsDb(dataDir, path.join(dataDir, STORE_FILE))
  code = await runUsersCli(argv, { db, print })
  db.close()
}
process.exit(code)
