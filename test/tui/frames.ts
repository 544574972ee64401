// Waiting for what the terminal shows: poll the last frame until it says what the test expects,
// within a bound, instead of sleeping for a fixed time and hoping the render has happened. The
// bound guards against a frame that never comes; a busy machine may take seconds to render one.

import { stripVTControlCharacters } from 'node:util'

const BOUND_MS = 10_000

/** The frame as a person reads it: no colour codes. */
export function plain(frame: string | undefined): string {
  return stripVTControlCharacters(frame ?? '')
}

/** Resolves with the first frame that `check` accepts; fails with the last frame seen after `ms`. */
export async function waitForFrame(lastFrame: () => string | undefined, check: (frame: string) => boolean, ms = BOUND_MS): Promise<string> {
  const deadline = Date.now() + ms
  for (;;) {
    const frame = plain(lastFrame())
    if (check(frame)) return frame
    if (Date.now() > deadline) throw new Error(`The frame never matched. Last frame:\n${frame}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** Resolves once a condition outside the frame holds (a request reached the source, say). */
export async function waitUntil(check: () => boolean, what: string, ms = BOUND_MS): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

export const KEY = {
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  enter: '\r',
  escape: '\x1b',
  tab: '\t',
  shiftTab: '\x1b[Z',
  backspace: '\x7f',
  ctrlC: '\x03',
  ctrlS: '\x13',
} as const
