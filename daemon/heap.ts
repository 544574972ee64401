// How much memory V8 keeps around the daemon's JavaScript. V8 sizes its heap for the machine: on
// a host with gigabytes free it lets the young generation grow to two semi-spaces of 16 MB, and
// the old generation to up to four times what survived its last full collection before it
// collects again. A burst of 10,000 publishes took a daemon whose live objects fit in about
// 25 MB to a heap of 90 MB that way (docs/benchmarks.md). Node sizes the young generation only
// from its command line (`--max-semi-space-size`), which the single executable cannot be given,
// and V8 reads that once, when the heap is made. What V8 reads at each collection are the two
// growth settings held down here, from the daemon's own code, so `smm daemon` and `smm-daemon`
// behave alike.
import { PerformanceObserver } from 'node:perf_hooks'
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'

const MiB = 1024 * 1024
/**
 * The largest the young generation's semi-spaces grow to: V8 starts them at 1 MB and would take
 * them to 16. Loading oclif and the daemon's modules has already taken them to 8 when the daemon
 * command runs, and V8 shrinks them only when the process is idle.
 */
export const SEMI_SPACE_CAP_MB = 8
/** After a full collection the old generation may grow by this share of what survived before V8 collects it again. */
export const OLD_SPACE_GROWTH_PERCENT = 50

/** The semi-space size V8 works with now, in MB. */
function semiSpaceMb(): number {
  const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')
  return young ? Math.ceil((young.space_used_size + young.space_available_size) / MiB) : SEMI_SPACE_CAP_MB
}

let held = false
/** How many streams of bytes (media uploads) are running: see `whileStreaming`. */
let streams = 0

/**
 * V8 multiplies the semi-spaces by the growth factor when enough has survived its scavenges;
 * a factor of (cap / size now) makes any growth land on the cap at most, and 1 keeps them as
 * they are. Set after every collection, not once: V8 puts a factor below 2 back to 2 whenever
 * an isolate is made (a Worker starting), hence also `afterWorkerOnline`.
 */
function holdSemiSpaces(): void {
  if (held) setFlagsFromString(`--semi-space-growth-factor=${Math.max(1, Math.floor(SEMI_SPACE_CAP_MB / semiSpaceMb()))}`)
}

/**
 * What code that starts a Worker calls once it is online (its isolate made): V8 has just set
 * the growth factor back, and the next collection might come too late to set it again. Does
 * nothing in a process whose heap is not held down.
 */
export const afterWorkerOnline = (): void => holdSemiSpaces()

/**
 * Holds V8's heap near what the daemon's objects need, for the life of the process (the daemon
 * command's; flags are the whole process's). Returns what puts V8's own settings back.
 */
export function holdHeapDown(): () => void {
  held = true
  setFlagsFromString(`--heap-growing-percent=${OLD_SPACE_GROWTH_PERCENT}`)
  holdSemiSpaces()
  const observer = new PerformanceObserver(holdSemiSpaces)
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
