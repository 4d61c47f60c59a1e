// `npm run config:docs`: regenerates docs/config-reference.md from schema/*.schema.json.
import { writeConfigReference } from './configReference'

writeConfigReference().then(
  () => console.log('docs/config-reference.md written'),
  (err: unknown) => {
    console.log(`config:docs: ${err instanceof Error ? err.message : String(err)}`)
    process.exitCode = 1
  },
)
