#!/usr/bin/env node
// The root help and the version need no oclif (loading it costs more than Node's own start): they
// are answered from what the build wrote (src/cli/fast-path.ts). Everything else runs through
// oclif, from the CLI's bundles (scripts/build-cli.ts).
import { answerWithoutOclif } from '../dist/src/cli/fast-path.js'

if (!answerWithoutOclif(process.argv.slice(2), new URL('../dist/root-help.json', import.meta.url))) {
  const { run } = await import('../dist/src/cli/main.js')
  await run(import.meta.url)
}
