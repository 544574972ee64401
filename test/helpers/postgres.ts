import { randomBytes } from 'node:crypto'
import net from 'node:net'
import postgres from 'postgres'
import { inject } from 'vitest'

/**
 * A new, empty database on the test run's PostgreSQL server, and a function that drops it: each
 * test (or file) gets its own, so suites never see each other's rows.
 */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = inject('postgresUrl')
  const name = `smm_test_${randomBytes(6).toString('hex')}`
  const sql = postgres(admin, { max: 1, onnotice: () => undefined })
  try {
    await sql.unsafe(`CREATE DATABASE ${name}`)
  } finally {
    await sql.end()
  }
  const url = new URL(admin)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const sql = postgres(admin, { max: 1, onnotice: () => undefined })
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      } finally {
        await sql.end()
      }
    },
  }
}

/** A relay server to `target`: each client gets its own connection upstream, wired by `wire`; either side's end ends the other. */
function relayTo(target: string, wire: (client: net.Socket, upstream: net.Socket) => void): { server: net.Server; sockets: Set<net.Socket> } {
  const to = new URL(target)
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(to.port), to.hostname)
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('error', () => s.destroy())
      s.on('close', () => sockets.delete(s))
    }
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
    wire(client, upstream)
  })
  return { server, sockets }
}

/**
 * A TCP relay in front of the database that a test can cut (every connection dropped, new ones
 * refused) and restore on the same port: a database lost and found, without stopping the server.
 * Or stall: nothing passes either way, nothing is closed (packets dropped on a network that
 * says nothing), until `flow()`.
 */
export async function cuttableRelay(
  target: string,
): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void>; stall(): void; flow(): void; close(): Promise<void> }> {
  let stalled = false
  const { server, sockets } = relayTo(target, (client, upstream) => {
    client.pipe(upstream).pipe(client)
    // After the pipes, which set both flowing: a connection made while stalled passes nothing either.
    if (stalled) for (const s of [client, upstream]) s.pause()
  })
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()))
  await listen(0)
  const port = (server.address() as net.AddressInfo).port
  const url = new URL(target)
  url.port = String(port)
  const stop = () => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy()
    server.close(() => resolve())
  })
  return {
    url: url.toString(),
    cut: stop,
    restore: () => listen(port),
    stall: () => {
      stalled = true
      for (const s of sockets) s.pause()
    },
    flow: () => {
      stalled = false
      for (const s of sockets) s.resume()
    },
    close: async () => (server.listening ? stop() : undefined),
  }
}

/**
 * A relay in front of the database that can stop a client as SIGSTOP would, at one chosen point
 * of the wire protocol: `stopAt(statement)` lets through the client's messages up to the Flush
 * that follows the Parse of a statement matching `statement` (the driver asks for a statement's
 * description before it binds and executes it), and none of the client's bytes after it. The
 * server's answers still reach the client. Resolves once the client is stopped there.
 */
export async function stoppingRelay(target: string): Promise<{ url: string; stopAt(statement: RegExp): Promise<void>; close(): Promise<void> }> {
  let wanted: { statement: RegExp; stopped: () => void } | undefined
  const { server, sockets } = relayTo(target, (client, upstream) => {
    upstream.pipe(client)
    // The startup message has no type byte; every message after it is a type, a length (itself included) and a body.
    let started = false
    let pending = Buffer.alloc(0)
    let parsed: string | undefined
    let stopped = false
    client.on('data', (chunk: Buffer) => {
      if (stopped) return
      if (!started) {
        started = true
        upstream.write(chunk)
        return
      }
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 5 && pending.length >= pending.readUInt32BE(1) + 1) {
        const message = pending.subarray(0, pending.readUInt32BE(1) + 1)
        pending = pending.subarray(message.length)
        upstream.write(message)
        const type = String.fromCharCode(message[0]!)
        // Parse: a statement name, then its text, each ending in a zero byte.
        if (type === 'P') parsed = message.subarray(5).toString('utf8').split('\0')[1]
        if (type === 'H' && wanted && parsed !== undefined && wanted.statement.test(parsed)) {
          stopped = true
          wanted.stopped()
          wanted = undefined
          return
        }
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const url = new URL(target)
  url.port = String((server.address() as net.AddressInfo).port)
  return {
    url: url.toString(),
    stopAt: (statement) => new Promise<void>((resolve) => (wanted = { statement, stopped: resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}
