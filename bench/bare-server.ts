// The floor for GET /v1/me: node:https and better-sqlite3 doing the same key lookup as the
// daemon (SHA-256 of the bearer token, one indexed SELECT joined to its user), and nothing else.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import https from 'node:https'
import Database from 'better-sqlite3'

const [dbFile, certFile, keyFile] = process.argv.slice(2) as [string, string, string]
const db = new Database(dbFile, { readonly: true })
const lookup = db.prepare('SELECT u.id, u.name, u.email, u.plan, u.timezone, u.created_at FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.hash = ?')

const server = https.createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
  const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''
  const user = lookup.get(createHash('sha256').update(token).digest('hex'))
  res.writeHead(user ? 200 : 401, { 'content-type': 'application/json' })
  res.end(JSON.stringify(user ?? { error: 'invalid_token' }))
})
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
