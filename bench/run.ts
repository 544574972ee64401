// `npm run bench`: every benchmark of the project in one run, each next to its floor.
import { benchAnalytics } from './analytics.js'
import { benchAttack } from './attack.js'
import { benchBinary } from './binary.js'
import { benchCliStart } from './cli-start.js'
import { benchHttp } from './http.js'
import { benchMedia } from './media.js'
import { benchPostgres } from './postgres.js'
import { benchScale } from './scale.js'
import { benchScheduler } from './scheduler.js'
import { benchWebhooks } from './webhooks.js'

type Section = [title: string, run: () => Promise<Record<string, number | string>>]

/** Each feature's benchmark adds one line. */
const sections: Section[] = [
  ['HTTP API', benchHttp],
  ['Slow clients', benchAttack],
  ['PostgreSQL store', benchPostgres],
  ['Scheduler', benchScheduler],
  ['Webhook delivery', benchWebhooks],
  ['Media uploads (256 MB)', benchMedia],
  ['CLI start time', benchCliStart],
  ['Single executable (dist/bin/smm-daemon)', benchBinary],
  ['Analytics (100,000 posts, 1,000,000 snapshots)', benchAnalytics],
  ['Scale (1,000,000 posts)', benchScale],
]

const only = process.argv[2]
for (const [title, run] of sections) {
  if (only && !title.toLowerCase().includes(only.toLowerCase())) continue
  process.stdout.write(`\n== ${title}\n`)
  const figures = await run()
  const width = Math.max(...Object.keys(figures).map((k) => k.length))
  for (const [name, value] of Object.entries(figures)) process.stdout.write(`  ${name.padEnd(width)}  ${value}\n`)
}
