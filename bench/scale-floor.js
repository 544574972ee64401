// The floor of bench/scale.ts: what any Node process costs that opens the same SQLite file with
// better-sqlite3 and serves HTTPS, doing the one read the benchmark's list client does (a page
// of the user's posts, newest first, as JSON) and nothing else: no framework, no auth, no
// scheduler. Plain JavaScript, so no TypeScript loader is counted in its start or its memory.
import { readFileSync } from 'node:fs'
import https from 'node:https'
import Database from 'better-sqlite3'

const [dbFile, certFile, keyFile, port] = process.argv.slice(2)
const db = new Database(dbFile, { readonly: true })
const owner = db.prepare('SELECT id FROM users WHERE is_owner = 1').pluck().get()
const page = db.prepare('SELECT * FROM posts WHERE user_id = ? ORDER BY coalesce(scheduled_at, created_at) DESC, id DESC LIMIT 100')

const server = https.createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ data: page.all(owner) }))
})
server.listen(Number(port), '127.0.0.1')
process.on('SIGTERM', () => server.close(() => process.exit(0)))
