import { spawnSync } from 'node:child_process'
import { BIN } from './processes.js'

function median(runs: number, args: string[]): number {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    spawnSync(process.execPath, args, { stdio: 'ignore' })
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]!
}

/** How long `smm --help` takes to start and finish, next to a bare `node -e ''`. */
export async function benchCliStart(): Promise<Record<string, number | string>> {
  const bare = median(9, ['-e', ''])
  const help = median(9, [BIN, '--help'])
  return {
    'node -e "" (floor), median ms': Number(bare.toFixed(1)),
    'smm --help, median ms (goal < 500)': Number(help.toFixed(1)),
    'ratio smm --help / node': Number((help / bare).toFixed(2)),
  }
}
