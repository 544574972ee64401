import type { PartPlan } from '../../src/post-parts.js'
import type { FollowUp, PartRef } from '../platforms/types.js'
import type { Outcome, StoredPart } from '../store/index.js'

const refOf = (part: StoredPart): PartRef => ({ platform_post_id: part.platformPostId, ref: part.ref })

/**
 * What a part after the post follows, given the parts already out: a first comment and the
 * first thread part answer the post itself, each later thread part the thread part before it
 * (never the comment: a thread reads on from the post).
 */
export function followUpOf(part: PartPlan, out: ReadonlyMap<number, StoredPart>): FollowUp {
  const root = out.get(0)!
  const before = [...out.values()].filter((p) => p.kind === 'thread' && p.index < part.index)
  const parent = part.kind === 'thread' && before.length ? before.reduce((a, b) => (b.index > a.index ? b : a)) : root
  return { index: part.index, kind: part.kind === 'first_comment' ? 'first_comment' : 'thread', root: refOf(root), parent: refOf(parent) }
}

/** An outcome of one part of several: which part, in the error and at the start of its detail. */
export function inPart<O extends Outcome>(outcome: O, part: PartPlan, count: number): O {
  if (outcome.kind === 'published') return outcome
  const what = part.index === 0 ? 'the post itself' : part.kind === 'first_comment' ? 'the first comment' : 'a thread part'
  const before = part.index === 0 ? '' : part.index === 1 ? '; part 0 is out and is not sent again' : `; parts 0–${part.index - 1} are out and are not sent again`
  return { ...outcome, part: part.index, detail: `Part ${part.index} of ${count} (${what}): ${outcome.detail}${before}` }
}
