// Fire-behaviour command line: `npm run fire -- point|grid|spread|validate …` (docs/fire.md). Bad input
// prints one line naming the option and exits 2; never a stack trace.
import { GRID_USAGE, runGrid } from './fire/gridCommand'
import { POINT_USAGE, UsageError, runPoint } from './fire/pointCommand'
import { SPREAD_USAGE, runSpread } from './fire/spreadCommand'
import { renderValidationTable } from './fire/validationTable'

const USAGE = [POINT_USAGE, GRID_USAGE, SPREAD_USAGE].join('\n')
const COMMANDS: Record<
  string,
  { usage: string; run: (args: readonly string[]) => string | Promise<string> }
> = {
  point: { usage: POINT_USAGE, run: runPoint },
  grid: { usage: GRID_USAGE, run: runGrid },
  spread: { usage: SPREAD_USAGE, run: runSpread },
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE)
    return command === undefined ? 2 : 0
  }
  if (command === 'validate') {
    console.log(renderValidationTable())
    return 0
  }
  const found = COMMANDS[command]
  if (!found) {
    console.error(`fire: unknown command '${command}' (commands: point, grid, spread, validate)\n${USAGE}`)
    return 2
  }
  if (rest.includes('--help')) {
    console.log(found.usage)
    return 0
  }
  try {
    console.log(await found.run(rest))
    return 0
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    console.error(`fire ${command}: ${err.message}`)
    return 2
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (err: unknown) => {
    console.error(`fire: internal error: ${err instanceof Error ? err.message : String(err)}`)
    process.exitCode = 1
  },
)
