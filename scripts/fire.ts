// Fire-behaviour command line: `npm run fire -- point …` (docs/fire.md). Bad input prints one line
// naming the option and exits 2; never a stack trace.
import { POINT_USAGE, UsageError, runPoint } from './fire/pointCommand'
import { renderValidationTable } from './fire/validationTable'

function main(argv: readonly string[]): number {
  const [command, ...rest] = argv
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(POINT_USAGE)
    return command === undefined ? 2 : 0
  }
  if (command === 'validate') {
    console.log(renderValidationTable())
    return 0
  }
  if (command !== 'point') {
    console.error(`fire: unknown command '${command}' (commands: point, validate)\n${POINT_USAGE}`)
    return 2
  }
  if (rest.includes('--help')) {
    console.log(POINT_USAGE)
    return 0
  }
  console.log(runPoint(rest))
  return 0
}

try {
  process.exitCode = main(process.argv.slice(2))
} catch (err) {
  if (err instanceof UsageError) {
    console.error(`fire point: ${err.message}`)
    process.exitCode = 2
  } else {
    console.error(`fire: internal error: ${err instanceof Error ? err.message : String(err)}`)
    process.exitCode = 1
  }
}
