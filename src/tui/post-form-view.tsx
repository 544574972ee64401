// The new-post / edit-post form: one row per field, the focused one marked, the server's or the
// form's own complaint under each field, and a live character count per chosen platform.

import { Box, Text } from 'ink'
import type { ReactNode } from 'react'
import type { CalendarState } from './calendar-state.js'
import type { PlatformInfo } from './calendar-source.js'
import { contentCounts, platformChoices, type FormField, type PostForm } from './post-form.js'
import { formatNumber } from '../numbers.js'

const LABEL_WIDTH = 12

function Row({ form, field, label, children }: { form: PostForm; field: FormField; label: string; children: ReactNode }) {
  const focused = form.field === field
  const error = form.errors[field]
  return (
    <Box flexDirection="column">
      <Box>
        <Box width={LABEL_WIDTH} flexShrink={0}>
          <Text color={focused ? 'cyan' : undefined} bold={focused}>{`${focused ? '›' : ' '} ${label}`}</Text>
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

/** The post form; `width` is the terminal's usable width. */
export function PostFormView({ form, state, width }: { form: PostForm; state: CalendarState; width: number }) {
  const account = state.accounts.find((a) => a.id === form.accountId)
  const choices = platformChoices(form, state.accounts)
  const counted = form.platforms.length > 0 ? form.platforms : choices.map((c) => c.platform)
  const cursor = form.field === 'content' && !form.submitting ? '▏' : ''
  const lines = form.content.split('\n')
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{form.kind === 'new' ? 'New post' : `Edit ${form.postId}`}</Text>
      <Text dimColor>Tab or ↑↓ moves between fields · Space picks platforms · Ctrl-S saves · Esc closes</Text>
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
        <Row form={form} field="date" label="Date">
          <Text>
            {form.date}
            {form.field === 'date' ? '▏' : ''}
            <Text dimColor>  YYYY-MM-DD</Text>
          </Text>
        </Row>
        <Row form={form} field="time" label="Time">
          <Text>
            {form.time}
            {form.field === 'time' ? '▏' : ''}
            <Text dimColor>{`  HH:MM, ${state.timeZone}`}</Text>
          </Text>
        </Row>
        <Box marginTop={1}>
          <Text inverse={form.field === 'submit'} color="cyan">
            {form.submitting ? ' Saving… ' : form.kind === 'new' ? ' [ Schedule ] ' : ' [ Save changes ] '}
          </Text>
        </Box>
      </Box>
    </Box>
  )
}
