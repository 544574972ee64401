import { Args, Flags } from '@oclif/core'
import type { Post, PostUpdate } from '../../src/api/posts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { usageError } from '../../src/cli/command-error.js'
import { readContent } from '../../src/cli/content-input.js'
import { alt, repeatable, duration, media, platform, time } from '../../src/cli/flags.js'
import { mediaWithAlt, postMedia } from '../../src/cli/media-input.js'
import { localTime } from '../../src/cli/output.js'

export default class PostsUpdate extends ApiCommand {
  static override description = `Change a scheduled post or a draft: its text, platforms, media, time, first comment or thread (a draft's time is only planned: \`posts schedule\` schedules it).

Only what you name is sent; everything else stays as it is, even if it changed elsewhere meanwhile. --platform, --media and --thread replace the whole list; --media takes files (uploaded first), uploaded media (med_…) and https:// URLs, each with the --alt in the same place, as \`posts create\` does. --no-first-comment and --no-thread remove them. Once the post has started publishing it can no longer change (exit code 5).`

  static override examples = [
    '<%= config.bin %> posts update pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --at "friday 10:00"',
    '<%= config.bin %> posts update pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --text "Fixed the typo" --platform mastodon',
    '<%= config.bin %> posts update pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --file draft.md --no-media',
    '<%= config.bin %> posts update pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --media ./poster.png --alt "The poster: doors at 7"',
    '<%= config.bin %> posts update pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --first-comment "Tickets: https://example.com" --thread "2/2 See you there"',
  ]

  static override args = {
    id: Args.string({ description: 'The post id (pst_…)', required: true }),
  }

  static override flags = {
    text: Flags.string({ description: 'The new text', exclusive: ['file'] }),
    file: Flags.string({ description: 'Read the new text from this file (- for standard input)', helpValue: '<file>', exclusive: ['text'] }),
    platform: platform({ description: 'Publish on these platforms instead (repeatable; replaces the list)', ...repeatable }),
    media: media({ ...repeatable, description: 'Attach these instead (repeatable; replaces the list): a file to upload, an uploaded media (med_…) or an https:// URL', exclusive: ['no-media'] }),
    alt: alt({ ...repeatable, dependsOn: ['media'] }),
    'no-media': Flags.boolean({ description: 'Remove every attached media, uploaded or linked', exclusive: ['media'] }),
    'first-comment': Flags.string({ description: 'The new first comment, published right after the post', helpValue: '<text>', exclusive: ['no-first-comment'] }),
    'no-first-comment': Flags.boolean({ description: 'Remove the first comment', exclusive: ['first-comment'] }),
    thread: Flags.string({ description: 'The thread’s parts after the post (repeatable, in order; replaces the thread)', helpValue: '<text>', ...repeatable, exclusive: ['no-thread'] }),
    'no-thread': Flags.boolean({ description: 'Remove the thread', exclusive: ['thread'] }),
    at: time({ description: 'The new time: RFC 3339, a local date-time or a phrase', exclusive: ['in'] }),
    in: duration({ description: 'Publish this long from now instead: 2h, 45m, 3d', exclusive: ['at'] }),
  }

  async run(): Promise<Post> {
    const { args, flags, raw } = await this.parse(PostsUpdate)
    const content = await readContent({ text: flags.text, file: flags.file, stdinWhenPiped: false })
    const scheduledAt = await this.scheduledTime(flags.at, flags.in)
    // --media replaces both lists: what it names, links and uploads, and nothing else.
    const attached = flags.media ? await postMedia(mediaWithAlt(raw), { client: () => this.client(), progress: this.showsProgress() }) : undefined
    const changes: PostUpdate = {
      ...(content !== undefined ? { content } : {}),
      ...(flags.platform ? { platforms: flags.platform } : {}),
      ...(attached ?? (flags['no-media'] ? { media_urls: [], media: [] } : {})),
      ...(scheduledAt ? { scheduled_at: scheduledAt } : {}),
      ...(flags['first-comment'] !== undefined ? { first_comment: flags['first-comment'] } : flags['no-first-comment'] ? { first_comment: null } : {}),
      ...(flags.thread ? { thread: flags.thread.map((part) => ({ content: part })) } : flags['no-thread'] ? { thread: [] } : {}),
    }
    if (Object.keys(changes).length === 0) {
      throw usageError('nothing_to_change', 'Nothing to change: give --text, --file, --platform, --media, --no-media, --at, --in, --first-comment, --no-first-comment, --thread or --no-thread.')
    }
    const client = await this.client()
    const post = await this.waitFor('Updating the post', client.updatePost({ params: { id: args.id }, body: changes }))
    if (!this.jsonEnabled()) {
      const fields = Object.keys(changes).map((f) => f.replace('_urls', '').replace('scheduled_at', 'time').replace('first_comment', 'first comment'))
      const state = post.status === 'draft' ? `it is a draft${post.scheduled_at ? ` planned for ${localTime(post.scheduled_at)}` : ''}` : `it is scheduled for ${localTime(post.scheduled_at)}`
      this.log(`Updated the ${[...new Set(fields)].join(', ')} of post ${post.id}; ${state} on ${post.platforms.join(', ')}.`)
    }
    return post
  }
}
