import cliProgress from 'cli-progress'

/** A console progress reporter for seeding/importing (one bar per label; quiet when not a TTY). */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): {
  update(label: string, done: number, total?: number): void
  stop(): void
} {
  let bar: cliProgress.SingleBar | null = null
  let current = ''
  let lastLog = 0
  const stop = (): void => {
    bar?.stop()
    bar = null
  }
  return {
    update(label, done, total) {
      if (!stream.isTTY) {
        const now = Date.now()
        if (label !== current || now - lastLog > 2000) {
          stream.write(`${label}: ${done}${total ? ` / ${total}` : ''}\n`)
          lastLog = now
          current = label
        }
        return
      }
      if (label !== current) {
        stop()
        current = label
        bar = new cliProgress.SingleBar(
          {
            format: `${label.padEnd(36)} [{bar}] {value}${total ? '/{total}' : ''}`,
            stream,
            hideCursor: true,
          },
          cliProgress.Presets.shades_classic,
        )
        bar.start(total ?? Math.max(done, 1), done)
      }
      if (bar && !total && done > bar.getTotal()) bar.setTotal(done)
      bar?.update(done)
    },
    stop,
  }
}
