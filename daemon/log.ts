import pino, { type DestinationStream, type Logger } from 'pino'

/**
 * The lines written during one turn of the event loop, handed to `out` together at its end
 * (`setImmediate`). Under load a turn finishes several requests, and one write(2) per request
 * line was about a tenth of a request's cost. A line waits for nothing but the end of its
 * turn, never for more lines; what is left at exit is written then.
 */
export function perTurn(out: DestinationStream): DestinationStream {
  let lines = ''
  const flush = () => {
    const batch = lines
    lines = ''
    if (batch !== '') out.write(batch)
  }
  process.once('exit', flush)
  return {
    write(line: string) {
      if (lines === '') setImmediate(flush)
      lines += line
    },
  }
}

/**
 * The daemon's log: JSON lines on standard output, each turn's written synchronously. pino's
 * default hands every write to a libuv thread and back, which cost more than the write itself;
 * a reader that cannot keep up (a stalled pipe) now slows the daemon rather than letting
 * unwritten lines pile up in its memory.
 */
export function daemonLogger(level: string): Logger {
  return pino({ level, base: undefined }, perTurn(pino.destination({ dest: 1, sync: true })))
}
