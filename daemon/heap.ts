// How much memory V8 keeps around the daemon's JavaScript. V8 sizes its heap for the machine: on
// a host with gigabytes free it lets the young generation grow to two semi-spaces of 16 MB, and
// the old generation to up to four times what survived its last full collection before it
// collects again. A burst of 10,000 publishes took a daemon whose live objects fit in about
// 25 MB to a heap of 90 MB that way (docs/benchmarks.md). Node sizes the young generation only
// from its command line (`--max-semi-space-size`), which the single executable cannot be given,
// and V8 reads that once, when the heap is made. What V8 reads at each collection are the two
// growth settings held down here, from the daemon's own code, so `smm daemon` and `smm-daemon`
// behave alike; docs/operations.md ("Memory") says what that guarantees.
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks'
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'
import { Worker, type WorkerOptions } from 'node:worker_threads'

const MiB = 1024 * 1024
/**
 * The largest the young generation's semi-spaces grow to: V8 starts them at 1 MB and would take
 * them to 16. Loading oclif and the daemon's modules has already taken them to 8 when the daemon
 * command runs, and V8 shrinks them only when the process is idle.
 */
export const SEMI_SPACE_CAP_MB = 8
/** After a full collection the old generation may grow by this share of what survived before V8 collects it again. */
export const OLD_SPACE_GROWTH_PERCENT = 50
/**
 * How long a Worker's start may hold the daemon's thread (see `startWorker`) before it goes on
 * without the Worker's word; a Worker runs its first line tens of milliseconds after it is made.
 */
const WORKER_START_WAIT_MS = 10_000

/** The semi-space size V8 works with now, in MB (rounded up). */
function semiSpaceMb(): number {
  const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')
  return young ? Math.ceil((young.space_used_size + young.space_available_size) / MiB) : SEMI_SPACE_CAP_MB
}

let held = false
/** How many streams of bytes (media uploads) are running: see `whileStreaming`. */
let streams = 0

// V8 multiplies the semi-spaces by the growth factor at a collection after which more has
// survived since they last grew than they hold. A factor set from the daemon's code is read by
// every collection until that code runs again, and an observer of collections runs only when the
// event loop turns (a `gc` entry reaches it one or two turns after its collection): a factor
// above 1 left in place compounds over the collections in between, as in one stretch of code that
// keeps a lot alive, 2 to 8 to 16 MB. So the factor is 1 at all times but inside `regrow`, which
// grows the semi-spaces one step within one stretch of its own.
const pin = () => setFlagsFromString('--semi-space-growth-factor=1')

/** Objects of 64 KB: V8 keeps anything under 128 KB in the young generation. */
const CHUNK_WORDS = 8 * 1024
/**
 * Takes semi-spaces that V8 shrank (it does after some seconds idle, to 1 MB) back towards the
 * cap in one growth: with the factor at cap / size, it keeps 64 KB objects alive until a
 * collection has seen more survive than the semi-spaces hold (V8's condition to grow them) and
 * they have grown, then pins the factor again. It looks at the size after each object, and
 * between two looks at most one growth happens (the next would need more than the grown size to
 * survive, and the young generation held at most the old size plus one object), which the factor
 * keeps within the cap. Gives up, having grown nothing, after allocating three times the size.
 */
function regrow(): void {
  const size = semiSpaceMb()
  const factor = Math.floor(SEMI_SPACE_CAP_MB / size)
  if (factor < 2) return
  setFlagsFromString(`--semi-space-growth-factor=${factor}`)
  try {
    const kept: number[][] = []
    const chunks = (3 * size * MiB) / (CHUNK_WORDS * 8)
    while (kept.length < chunks && semiSpaceMb() === size) kept.push(new Array<number>(CHUNK_WORDS))
  } finally {
    pin()
  }
}

/** When the last collection this process saw ended (performance.now()), or undefined before the first. */
let lastGcEnd: number | undefined
/**
 * After each collection: the factor is pinned again (V8 puts it back to 2 whenever an isolate is
 * made, and some code might make one without `startWorker`), and semi-spaces below the cap are
 * grown back once the daemon is busy again: a scavenge that began less than a second after the
 * collection before it ended, as one does when more than a megabyte a second is allocated (V8
 * shrinks them when less is).
 */
function afterCollections(entries: PerformanceEntry[]): void {
  pin()
  let busy = false
  for (const entry of entries) {
    const scavenge = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR
    if (scavenge && lastGcEnd !== undefined && entry.startTime - lastGcEnd < 1_000) busy = true
    lastGcEnd = Math.max(lastGcEnd ?? 0, entry.startTime + entry.duration)
  }
  if (busy && semiSpaceMb() < SEMI_SPACE_CAP_MB) regrow()
}

/**
 * Starts a Worker on `code` (evaluated as a CommonJS script; `options.workerData` must be an
 * object, if given). Making the Worker's isolate puts V8's growth factor for the young
 * generation back to 2 (Heap::ConfigureHeap, for any factor below 2), in the whole process, on
 * the Worker's own thread some milliseconds after `new Worker` returns: waiting for the Worker's
 * 'online' event left the daemon's code running with that factor meanwhile, and one collection
 * with enough survived took the semi-spaces to 16 MB for good. In a process whose heap is held,
 * this thread waits instead, running no code and so allocating nothing, until the Worker's first
 * line says its isolate is made, and pins the factor again before it goes on. What can still
 * meet the factor V8 set is a collection V8 itself runs on an interrupt during that wait (to
 * finish incremental marking, say). Elsewhere it only starts the Worker.
 */
export function startWorker(code: string, options: WorkerOptions = {}): Worker {
  if (!held) return new Worker(code, { ...options, eval: true })
  const made = new Int32Array(new SharedArrayBuffer(4))
  const announce = `{ const made = require('node:worker_threads').workerData.isolateMade; Atomics.store(made, 0, 1); Atomics.notify(made, 0) }\n`
  const worker = new Worker(announce + code, { ...options, eval: true, workerData: { ...(options.workerData as object), isolateMade: made } })
  // Returns at once once the Worker has stored 1; a Worker that never runs its first line (it
  // failed to start: its 'error' event says why) holds this thread up to the wait's end.
  Atomics.wait(made, 0, 0, WORKER_START_WAIT_MS)
  pin()
  return worker
}

/**
 * Holds V8's heap near what the daemon's objects need, for the life of the process (the daemon
 * command's; flags are the whole process's). Returns what puts V8's own settings back.
 */
export function holdHeapDown(): () => void {
  held = true
  lastGcEnd = undefined
  setFlagsFromString(`--heap-growing-percent=${OLD_SPACE_GROWTH_PERCENT}`)
  pin()
  const observer = new PerformanceObserver((list) => afterCollections(list.getEntries()))
  observer.observe({ entryTypes: ['gc'] })
  return () => {
    held = false
    observer.disconnect()
    setFlagsFromString('--heap-growing-percent=0')
    setFlagsFromString('--semi-space-growth-factor=2')
  }
}

/**
 * While bytes stream through the daemon, the old generation may grow to this many times what
 * survived its last full collection: V8's own largest factor for a heap this size.
 */
export const STREAMING_OLD_SPACE_GROWTH_PERCENT = 300

/**
 * Runs `work`, which streams bytes through the daemon (a media upload's body). Each chunk of such
 * a body is a fresh buffer outside V8's heap, which V8 counts against the old generation's limit
 * until a scavenge frees it. With that limit held at 50 % over a heap of about 20 MB, an upload
 * started a full collection every 10 to 20 MB of it (about 30 for 256 MB: a third of the daemon's
 * CPU for the upload, docs/benchmarks.md). While any such work runs, a full collection sets the
 * limit at four times what survived instead (V8's own choice varies with its measured speeds,
 * down to 1.5 times under load); the hold is back once the last one ends, from the next full
 * collection on. In a process whose heap is not held down, it only runs `work`.
 */
export async function whileStreaming<T>(work: () => Promise<T>): Promise<T> {
  if (!held) return work()
  if (streams++ === 0) setFlagsFromString(`--heap-growing-percent=${STREAMING_OLD_SPACE_GROWTH_PERCENT}`)
  try {
    return await work()
  } finally {
    if (--streams === 0 && held) setFlagsFromString(`--heap-growing-percent=${OLD_SPACE_GROWTH_PERCENT}`)
  }
}
