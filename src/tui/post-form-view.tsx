// The new-post / edit-post form: one row per field, the focused one marked, the server's or the
// form's own complaint under each field, and a live character count per chosen platform.

import { Box, Text } from 'ink'
import type { ReactNode } from 'react'
import type { CalendarState } from './calendar-state.js'
import type { PlatformInfo } from './calendar-source.js'
import { contentCounts, platformChoices, whenChoices, type FormField, type PostForm, type When } from './post-form.js'
import { formatNumber } from '../numbers.js'
import { formatTime, zonedParts } from '../zoned-time.js'

const LABEL_WIDTH = 12

function Row({ form, field, label, children, unused = false }: { form: PostForm; field: FormField; label: string; children: ReactNode; unused?: boolean }) {
  const focused = form.field === field
  const error = form.errors[field]
  return (
    <Box flexDirection="column">
      <Box>
        <Box width={LABEL_WIDTH} flexShrink={0}>
          <Text color={focused ? 'cyan' : undefined} bold={focused} dimColor={unused}>{`${focused ? '›' : ' '} ${label}`}</Text>
        </Box>
        <Box flexDirection="column" flexGrow={1}>{children}</Box>
      </Box>
      {error ? (
        <Box marginLeft={LABEL_WIDTH}>
          <Text color="red">{error}</Text>
        </Box>
      ) : null}
    </Box>
  )
}

function Counts({ form, platforms, names }: { form: PostForm; platforms: PlatformInfo[]; names: string[] }) {
  return (
    <Text>
      {contentCounts(form, platforms, names).map(({ platform, length, max }, i) => {
        const over = max !== undefined && length > max
        return (
          <Text key={platform} color={over ? 'red' : 'gray'}>
            {`${i > 0 ? ' · ' : ''}${platform} ${formatNumber(length)}${max === undefined ? '' : `/${formatNumber(max)}`}${over ? ` (${formatNumber(length - max)} over)` : ''}`}
          </Text>
        )
      })}
    </Text>
  )
}

const WHEN_WORDS: Record<When, string> = { at: 'at the date and time below', queue: 'next free queue slot', draft: 'draft' }

/** What the chosen `when` will do, said next to it: for the queue, the slot it would take now. */
function whenNote(form: PostForm, state: CalendarState): string {
  if (form.when === 'draft') return 'not published until scheduled; date and time are its plan (empty: none)'
  if (form.when === 'at') return form.editsDraft ? 'schedules the draft' : ''
  const queue = form.accountId ? state.queues[form.accountId] : undefined
  if (!queue) return 'the daemon picks the slot'
  if (queue.slots.length === 0) return `this account has no queue slots: smm accounts queue set ${form.accountId} --slot "mon 09:00"${state.profileFlag}`
  // The daemon's list of free times as of the last refresh; the save answers with the real one.
  const next = queue.next.map(Date.parse).find((at) => at > state.now)
  if (next === undefined) return 'no free slot known: the daemon picks one'
  return `now ${zonedParts(next, state.timeZone).date} ${formatTime(next, state.timeZone)}`
}

const SUBMIT_WORDS: Record<When, [string, string]> = {
  at: ['Schedule', 'Save and schedule'],
  queue: ['Queue', 'Save and queue'],
  draft: ['Save draft', 'Save draft'],
}

function submitLabel(form: PostForm): string {
  if (form.submitting) return ' Saving… '
  if (form.kind === 'edit' && !form.editsDraft) return ' [ Save changes ] '
  return ` [ ${SUBMIT_WORDS[form.when][form.kind === 'new' ? 0 : 1]} ] `
}

/** The post form; `width` is the terminal's usable width. */
export function PostFormView({ form, state, width }: { form: PostForm; state: CalendarState; width: number }) {
  const account = state.accounts.find((a) => a.id === form.accountId)
  const choices = platformChoices(form, state.accounts)
  const counted = form.platforms.length > 0 ? form.platforms : choices.map((c) => c.platform)
  const cursor = form.field === 'content' && !form.submitting ? '▏' : ''
  const lines = form.content.split('\n')
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{form.kind === 'new' ? 'New post' : `Edit ${form.editsDraft ? 'draft ' : ''}${form.postId}`}</Text>
      <Text dimColor>Tab or ↑↓ moves · Space picks platforms and when · Ctrl-S saves · Esc closes</Text>
      <Box flexDirection="column" marginTop={1}>
        {form.kind === 'new' ? (
          <Row form={form} field="account" label="Account">
            <Text>{account ? `‹ ${account.name} ›  ${account.id}` : 'no account yet'}</Text>
          </Row>
        ) : (
          <Box>
            <Box width={LABEL_WIDTH}>
              <Text dimColor>  Account</Text>
            </Box>
            <Text dimColor>{account ? `${account.name}  ${account.id}` : form.accountId}</Text>
          </Box>
        )}
        <Row form={form} field="platforms" label="Platforms">
          <Text wrap="wrap">
            {choices.length === 0 ? 'no platform connected to this account' : null}
            {choices.map((c, i) => {
              const on = form.platforms.includes(c.platform)
              const focused = form.field === 'platforms' && i === form.platformCursor
              return (
                <Text key={c.platform} inverse={focused}>
                  {`${i > 0 ? '  ' : ''}[${on ? 'x' : ' '}] ${c.platform}${c.note ? ` (${c.note})` : ''}`}
                </Text>
              )
            })}
          </Text>
        </Row>
        <Row form={form} field="content" label="Content">
          {lines.map((line, i) => (
            <Text key={i} wrap="wrap">
              {line}
              {i === lines.length - 1 ? cursor : ''}
            </Text>
          ))}
          <Counts form={form} platforms={state.platforms} names={counted} />
        </Row>
        {whenChoices(form).length > 1 ? (
          <Row form={form} field="when" label="When">
            <Text wrap="wrap">
              {`‹ ${WHEN_WORDS[form.when]} ›`}
              <Text dimColor>{`  ${whenNote(form, state)}`}</Text>
            </Text>
          </Row>
        ) : null}
        <Row form={form} field="date" label="Date" unused={form.when === 'queue'}>
          <Text dimColor={form.when === 'queue'}>
            {form.date}
            {form.field === 'date' ? '▏' : ''}
            <Text dimColor>{form.when === 'queue' ? '  not used: the queue picks the time' : '  YYYY-MM-DD'}</Text>
          </Text>
        </Row>
        <Row form={form} field="time" label="Time" unused={form.when === 'queue'}>
          <Text dimColor={form.when === 'queue'}>
            {form.time}
            {form.field === 'time' ? '▏' : ''}
            <Text dimColor>{`  HH:MM, ${state.timeZone}`}</Text>
          </Text>
        </Row>
        <Box marginTop={1}>
          <Text inverse={form.field === 'submit'} color="cyan">
            {submitLabel(form)}
          </Text>
        </Box>
      </Box>
    </Box>
  )
}
