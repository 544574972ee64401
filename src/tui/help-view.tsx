// The help screen (`?`): every key of the calendar and of the post form, and what the marks mean.

import { Box, Text } from 'ink'
import { FREE_SLOT_GLYPH } from './post-style.js'

const HELP: [string, string][] = [
  ['←→ / h l', 'previous / next day'],
  ['↑↓ / k j', 'previous / next week (day view: previous / next entry)'],
  ['Tab / Shift-Tab', 'next / previous post or free slot of the day'],
  ['PageUp / PageDown', 'previous / next month'],
  ['t', 'today'],
  ['m / w / Enter', 'month / week view / open the day (or its free slot)'],
  ['n', 'new post on the day, or in the selected free slot'],
  ['e', 'edit the selected post or draft (schedule a draft)'],
  ['x', 'cancel the selected post or draft (asks first)'],
  ['a', 'approve the selected post waiting for approval (admins and owners)'],
  ['R', 'send it back for changes, with a comment (Enter sends, Esc keeps it)'],
  ['r', 'refresh now (also every 30 seconds)'],
  ['?', 'this help'],
  ['q / Esc / Ctrl-C', 'quit'],
  ['form: Space / ←→', 'on When: at a time · next free queue slot · draft'],
  ['form: Ctrl-S / Esc', 'save / close without saving'],
]

export function HelpView() {
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Keys</Text>
      {HELP.map(([keys, what]) => (
        <Text key={keys} wrap="truncate">
          <Text color="cyan">{keys.padEnd(20)}</Text>
          {what}
        </Text>
      ))}
      <Text dimColor wrap="truncate">{`✎ a draft · ${FREE_SLOT_GLYPH}2: two free queue slots that day · any key closes this help`}</Text>
    </Box>
  )
}
