// What bin/run.js runs: oclif, from the CLI's bundle (scripts/build-cli.ts), so that starting
// `smm` reads a few bundled files rather than oclif's and our modules one by one.
import { execute } from '@oclif/core'

/** Runs the command in process.argv; `dir` is bin/run.js's URL, from which oclif finds package.json. */
export async function run(dir: string): Promise<void> {
  await execute({ dir })
}
