// Admin CLI for identity members: `npm run users -- add|list|disable|enable|reset-password|set-phone|set-roles|audit`.
import fs from 'node:fs'
import path from 'node:path'
import { runUsersCli } from '../src/server/identity/usersCli'
import { openAccountsDb } from '../src/server/store/accountsDb'
import { STORE_FILE } from '../src/server/store/sqliteStore'

const argv = process.argv.slice(2)
const at = argv.findIndex((a) => a === '--data-dir' || a.startsWith('--data-dir='))
let dataDir = process.env.DATA_DIR ?? './var'
if (at >= 0) {
  const arg = argv[at] ?? ''
  dataDir = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (argv[at + 1] ?? dataDir)
  argv.splice(at, arg.includes('=') ? 1 : 2)
}
fs.mkdirSync(dataDir, { recursive: true })
// Members live in the accounts database; a store from before it moves them there first.
const db = openAccountsDb(dataDir, path.join(dataDir, STORE_FILE))
const code = await runUsersCli(argv, { db, print: (line) => process.stdout.write(`${line}\n`) })
db.close()
process.exit(code)
