// The calendar's rendering: a pure function of the state and the terminal's size. No hooks that
// talk to the outside world live here (see calendar-app.tsx and use-calendar-input.ts).

import { Box, Text } from 'ink'
import { mediaShape } from '../media-shape.js'
import { formatTime, monthGrid, partsOf, weekDays, type CivilDate } from '../zoned-time.js'
import { dayEntries, selectedEntry, type CalendarState } from './calendar-state.js'
import type { Post } from './calendar-source.js'
import type { DayEntry, FreeSlot } from './day-entries.js'
import { HelpView } from './help-view.js'
import { FREE_SLOT_GLYPH, STATUS_STYLE, clip, oneLine, postTime, statusWord } from './post-style.js'
import { PostFormView } from './post-form-view.js'

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']
/** How much fits: the grid gives up post lines before the screen grows taller than the terminal. */
interface Layout {
  width: number
  /** Post lines in a month cell, and whether a "+N more" line follows them. */
  cellPosts: number
  cellMore: boolean
  columnPosts: number
  panelPosts: number
  agendaPosts: number
}

// Lines around the views: header, its margins, a status line that may wrap once.
const CHROME_LINES = 5

export function layoutFor(width: number, rows: number, weeks: number): Layout {
  const panelPosts = rows >= 40 ? 6 : rows >= 30 ? 4 : 2
  const panelLines = panelPosts + 3
  const perCell = Math.floor((rows - CHROME_LINES - panelLines - 1) / weeks)
  return {
    width,
    cellPosts: perCell >= 3 ? Math.min(3, perCell - 2) : Math.max(0, perCell - 1),
    cellMore: perCell >= 3,
    columnPosts: Math.max(1, rows - CHROME_LINES - panelLines - 2),
    panelPosts,
    // A post in the agenda takes three lines or more (time, ids, target results, a gap).
    agendaPosts: Math.max(1, Math.floor((rows - CHROME_LINES - 1) / 4)),
  }
}

/** The slice of `count` items of at most `size` that keeps `selected` in view. */
function windowAround(selected: number, count: number, size: number): { start: number; end: number } {
  const start = Math.max(0, Math.min(selected - size + 1, count - size))
  return { start, end: Math.min(count, start + size) }
}

function weekdayName(date: CivilDate): string {
  const { year, month, day } = partsOf(date)
  const js = new Date(Date.UTC(year, month - 1, day)).getUTCDay()
  return WEEKDAYS[(js + 6) % 7]!
}

/** 'Tue 24 November 2026' */
export function longDate(date: CivilDate): string {
  const { year, month, day } = partsOf(date)
  return `${weekdayName(date)} ${day} ${MONTHS[month - 1]} ${year}`
}

function count(n: number): string {
  return `${n} post${n === 1 ? '' : 's'}`
}

type Days = Map<CivilDate, DayEntry[]>

/** A day's posts and its number of free queue slots, for the grid. */
function dayOf(days: Days, day: CivilDate): { posts: Post[]; free: number } {
  const posts: Post[] = []
  let free = 0
  for (const entry of days.get(day) ?? []) {
    if (entry.kind === 'post') posts.push(entry.post)
    else free++
  }
  return { posts, free }
}

/** The selected entry's post, to mark it where the grid draws posts alone. */
function selectedPostId(state: CalendarState): string | undefined {
  const entry = selectedEntry(state)
  return entry?.kind === 'post' ? entry.post.id : undefined
}

function Header({ state }: { state: CalendarState }) {
  const { year, month } = partsOf(state.cursor)
  const title = state.view === 'day' ? longDate(state.cursor) : `${MONTHS[month - 1]} ${year}`
  const freshness = state.loading ? 'loading…' : state.loadedAt === null ? '' : `updated ${formatTime(state.loadedAt, state.timeZone)}`
  return (
    <Box justifyContent="space-between">
      <Text>
        <Text bold>{title}</Text>
        <Text dimColor>{`  ${state.view} view · ${state.timeZone}`}</Text>
      </Text>
      <Text dimColor>{freshness}</Text>
    </Box>
  )
}

function PostLine({ post, state, width, selected = false, detail = false }: { post: Post; state: CalendarState; width: number; selected?: boolean; detail?: boolean }) {
  const style = STATUS_STYLE[post.status]
  const head = `${selected ? '▸' : ' '}${postTime(post, state.timeZone)} ${style.glyph}`
  const rest = detail
    ? ` ${statusWord(post.status).padEnd(19)} ${post.platforms.join(', ')}  ${oneLine(post.content)}`
    : ` ${oneLine(post.content)}`
  return (
    <Text wrap="truncate" color={style.color} inverse={selected && detail} strikethrough={post.status === 'cancelled'}>
      {clip(head + rest, width)}
    </Text>
  )
}

function SlotLine({ slot, state, width, selected = false }: { slot: FreeSlot; state: CalendarState; width: number; selected?: boolean }) {
  return (
    <Text wrap="truncate" dimColor={!selected} inverse={selected}>
      {clip(`${selected ? '▸' : ' '}${formatTime(slot.at, state.timeZone)} · free slot · ${slot.accountName}`, width)}
    </Text>
  )
}

/** A day's line in the grid: its label, then its post count and a count of free slots (◇2) as room allows. */
function dayHeading(label: string, posts: number, free: number, width: number): string {
  const marker = free > 0 ? `${FREE_SLOT_GLYPH}${free}` : ''
  for (const right of [[posts > 0 ? count(posts) : '', marker], [posts > 0 ? String(posts) : '', marker], [posts > 0 ? String(posts) : '']]) {
    const text = right.filter(Boolean).join(' ')
    if (label.length + 1 + text.length <= width || text === '') return `${label.padEnd(width - text.length)}${text}`
  }
  return label
}

function MonthView({ state, layout, days }: { state: CalendarState; layout: Layout; days: Days }) {
  const cell = Math.max(9, Math.min(24, Math.floor(layout.width / 7)))
  const grid = monthGrid(state.cursor, state.weekStart)
  const month = partsOf(state.cursor).month
  return (
    <Box flexDirection="column">
      <Box>
        {grid[0]!.map((d) => (
          <Box key={d} width={cell}>
            <Text bold>{` ${weekdayName(d)}`}</Text>
          </Box>
        ))}
      </Box>
      {grid.map((week) => (
        <Box key={week[0]}>
          {week.map((d) => {
            const { posts, free } = dayOf(days, d)
            const isCursor = d === state.cursor
            const isToday = d === state.today
            const label = `${isCursor ? '▸' : ' '}${partsOf(d).day}${isToday ? '•' : ''}`
            const extra = posts.length - layout.cellPosts
            return (
              <Box key={d} width={cell} flexDirection="column">
                <Text
                  wrap="truncate"
                  inverse={isCursor}
                  bold={isToday}
                  color={isToday ? 'yellow' : undefined}
                  dimColor={partsOf(d).month !== month}
                >
                  {dayHeading(label, posts.length, free, cell - 1)}
                </Text>
                {Array.from({ length: layout.cellPosts }, (_, i) => {
                  const post = posts[i]
                  if (!post) return <Text key={i}> </Text>
                  const style = STATUS_STYLE[post.status]
                  return (
                    <Text key={i} wrap="truncate" color={style.color}>
                      {clip(` ${postTime(post, state.timeZone)} ${style.glyph} ${oneLine(post.content)}`, cell - 1)}
                    </Text>
                  )
                })}
                {layout.cellMore ? <Text dimColor>{extra > 0 ? ` +${extra} more` : ' '}</Text> : null}
              </Box>
            )
          })}
        </Box>
      ))}
    </Box>
  )
}

function WeekView({ state, layout, days }: { state: CalendarState; layout: Layout; days: Days }) {
  const cell = Math.max(9, Math.floor(layout.width / 7))
  const selectedId = selectedPostId(state)
  return (
    <Box>
      {weekDays(state.cursor, state.weekStart).map((d) => {
        const { posts, free } = dayOf(days, d)
        const isCursor = d === state.cursor
        const isToday = d === state.today
        const shown = posts.length > layout.columnPosts ? posts.slice(0, layout.columnPosts - 1) : posts
        return (
          <Box key={d} width={cell} flexDirection="column">
            <Text wrap="truncate" inverse={isCursor} bold={isToday} color={isToday ? 'yellow' : undefined}>
              {dayHeading(`${isCursor ? '▸' : ' '}${weekdayName(d)} ${partsOf(d).day}${isToday ? '•' : ''}`, 0, free, cell - 1)}
            </Text>
            {posts.length === 0 ? <Text dimColor> —</Text> : null}
            {shown.map((post) => (
              <PostLine key={post.id} post={post} state={state} width={cell - 1} selected={isCursor && post.id === selectedId} />
            ))}
            {shown.length < posts.length ? <Text dimColor>{` +${posts.length - shown.length} more`}</Text> : null}
          </Box>
        )
      })}
    </Box>
  )
}

function entryKey(entry: DayEntry): string {
  return entry.kind === 'post' ? entry.post.id : `${entry.slot.accountId}@${entry.at}`
}

/** The focused day's posts with their platforms, and its free slots, under the month and week views. */
function DayPanel({ state, layout, days }: { state: CalendarState; layout: Layout; days: Days }) {
  const { width, panelPosts } = layout
  const entries = days.get(state.cursor) ?? []
  const { posts, free } = dayOf(days, state.cursor)
  // Scrolls with the selection so the selected entry is always in view.
  const { start, end } = windowAround(state.selected, entries.length, panelPosts)
  const shown = entries.slice(start, end)
  const freeText = free > 0 ? ` · ${free} free slot${free === 1 ? '' : 's'}` : ''
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>{`${longDate(state.cursor)} · ${posts.length === 0 ? 'nothing scheduled' : count(posts.length)}${freeText}`}</Text>
      {shown.map((entry, i) =>
        entry.kind === 'post' ? (
          <PostLine key={entryKey(entry)} post={entry.post} state={state} width={width} selected={start + i === state.selected} detail />
        ) : (
          <SlotLine key={entryKey(entry)} slot={entry.slot} state={state} width={width} selected={start + i === state.selected} />
        ),
      )}
      {entries.length > shown.length ? <Text dimColor>{`  +${entries.length - shown.length} more: Enter opens the day`}</Text> : null}
    </Box>
  )
}

/** A post's attachments as the agenda lists them: its links, then its uploads with the alt text they go out with. */
function attachments(post: Post): string[] {
  return [
    ...post.media_urls.map((url) => `link ${oneLine(url)}`),
    ...(post.media ?? []).map((m) => `media ${mediaShape(m)} · ${m.alt_text ? `alt: “${oneLine(m.alt_text)}”` : 'no alt text'}`),
  ]
}

function DayAgenda({ state, layout, days }: { state: CalendarState; layout: Layout; days: Days }) {
  const { width } = layout
  const entries = days.get(state.cursor) ?? []
  if (entries.length === 0) return <Text dimColor>Nothing scheduled on this day. Press n to write a post.</Text>
  const { start, end } = windowAround(state.selected, entries.length, layout.agendaPosts)
  return (
    <Box flexDirection="column">
      {start > 0 ? <Text dimColor>{`  ↑ ${start} earlier`}</Text> : null}
      {entries.slice(start, end).map((entry, i) => {
        if (entry.kind === 'slot') {
          return (
            <Box key={entryKey(entry)} marginBottom={1}>
              <SlotLine slot={entry.slot} state={state} width={width} selected={start + i === state.selected} />
            </Box>
          )
        }
        const { post } = entry
        return (
        <Box key={post.id} flexDirection="column" marginBottom={1}>
          <PostLine post={post} state={state} width={width} selected={start + i === state.selected} detail />
          <Text wrap="truncate" dimColor>{clip(`      ${post.id} · ${post.account_id}`, width)}</Text>
          {attachments(post).map((line, n) => (
            <Text key={`media-${n}`} wrap="truncate" dimColor>{clip(`      ${line}`, width)}</Text>
          ))}
          {post.targets
            .filter((t) => t.status === 'failed' || t.status === 'unconfirmed' || t.url)
            .map((t) => (
              <Text key={t.platform} wrap="truncate" color={t.status === 'published' ? undefined : 'red'}>
                {clip(`      ${t.platform}: ${t.status}${t.error ? ` — ${t.error.detail}` : ''}${t.url ? ` ${t.url}` : ''}`, width)}
              </Text>
            ))}
        </Box>
        )
      })}
      {end < entries.length ? <Text dimColor>{`  ↓ ${entries.length - end} later`}</Text> : null}
    </Box>
  )
}

function StatusLine({ state, width }: { state: CalendarState; width: number }) {
  const { mode } = state
  if (mode.kind === 'confirm-cancel') {
    const post = state.posts.find((p) => p.id === mode.postId)
    const what = post ? `the ${postTime(post, state.timeZone)} post on ${post.platforms.join(', ')}` : mode.postId
    // The keys come first so a narrow terminal never cuts them off.
    const text = mode.busy ? 'Cancelling…' : `y cancels ${what}, n or Esc keeps it: “${oneLine(post?.content ?? '')}”`
    return <Text color="yellow" wrap="truncate">{clip(text, width)}</Text>
  }
  if (mode.kind === 'reject') {
    const text = mode.busy ? 'Sending it back…' : `What should change? Enter sends ${mode.postId} back, Esc keeps it waiting: ${mode.comment}▏`
    return <Text color="yellow" wrap="wrap">{text}</Text>
  }
  if (state.status) {
    const color = state.status.tone === 'error' ? 'red' : state.status.tone === 'success' ? 'green' : undefined
    return <Text color={color} wrap="wrap">{state.status.text}</Text>
  }
  const hints = state.mode.kind === 'form' ? '' : '? help · n new · e edit · x cancel · a approve · R send back · r refresh · q quit'
  return <Text dimColor>{hints}</Text>
}

/** The whole calendar screen for a state on a terminal of `width` columns and `rows` lines. */
export function Calendar({ state, width, rows }: { state: CalendarState; width: number; rows: number }) {
  const days = dayEntries(state)
  const usable = Math.max(40, width - 1)
  const layout = layoutFor(usable, rows, monthGrid(state.cursor, state.weekStart).length)
  let body
  if (state.mode.kind === 'help') body = <HelpView />
  else if (state.mode.kind === 'form') body = <PostFormView form={state.mode.form} state={state} width={usable} />
  else if (state.view === 'month') body = <><MonthView state={state} layout={layout} days={days} /><DayPanel state={state} layout={layout} days={days} /></>
  else if (state.view === 'week') body = <><WeekView state={state} layout={layout} days={days} /><DayPanel state={state} layout={layout} days={days} /></>
  else body = <DayAgenda state={state} layout={layout} days={days} />
  return (
    <Box flexDirection="column" width={usable}>
      <Header state={state} />
      <Box flexDirection="column" marginY={1}>{body}</Box>
      <StatusLine state={state} width={usable} />
    </Box>
  )
}
