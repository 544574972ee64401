/**
 * The daemon as its own process, for tests that kill it: `node --import tsx
 * test/helpers/daemon-process.ts DATA_DIR`. Prints one JSON line ({url, ca}) once it listens.
 */
import pino from 'pino'
import { startDaemon } from '../../daemon/main.js'

const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: daemon-process.ts DATA_DIR')
const daemon = await startDaemon({ dataDir, host: '127.0.0.1', port: 0 }, { log: pino({ level: 'silent' }) })
process.stdout.write(`${JSON.stringify({ url: daemon.url, ca: daemon.tls?.certPath })}\n`)
process.once('SIGTERM', () => {
  daemon.close().then(() => process.exit(0), () => process.exit(1))
})
