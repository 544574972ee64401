import { describe, expect, it } from 'vitest'
import { bluesky } from '../daemon/platforms/bluesky.js'
import { instagram } from '../daemon/platforms/instagram.js'
import { mastodon } from '../daemon/platforms/mastodon.js'
import { x } from '../daemon/platforms/x.js'
import { telegram } from '../daemon/platforms/telegram.js'
import { altTextNotSent } from '../daemon/platforms/limits.js'
import { slack } from '../daemon/platforms/slack.js'
import type { DraftMedia, PlatformLimits } from '../daemon/platforms/types.js'

const image = (fields: Partial<DraftMedia> = {}): DraftMedia => ({ content_type: 'image/jpeg', bytes: 200_000, width: 1080, height: 1080, duration_ms: null, alt_text: null, ...fields })
const video = (fields: Partial<DraftMedia> = {}): DraftMedia => ({ content_type: 'video/mp4', bytes: 5_000_000, width: 1280, height: 720, duration_ms: 30_000, alt_text: null, ...fields })
const draft = (media: DraftMedia[], content = 'Hello') => ({ content, media_urls: [], media })
const mediaErrors = (errors: { pointer: string }[]) => errors.filter((e) => e.pointer.startsWith('#/media'))

describe('each platform’s media rules, declared once in its module', () => {
  it('Instagram: JPEG only, 4:5 to 1.91:1, each error at its item with the rule in words', () => {
    expect(mediaErrors(instagram.check(draft([image(), image({ content_type: 'image/png' }), image({ width: 1080, height: 1920 })]), {}))).toEqual([
      { pointer: '#/media/1', code: 'media_type_unsupported', detail: 'is image/png; Instagram takes images of type image/jpeg: convert it to one of them, or leave this platform out' },
      { pointer: '#/media/2', code: 'media_aspect_ratio', detail: 'has an aspect ratio of 0.56 (1080×1920, width divided by height); Instagram takes images from 0.8 to 1.91: crop it' },
    ])
    // Uploaded media count as media: a caption with one is a post Instagram publishes.
    expect(instagram.check(draft([image()]), {})).toEqual([])
  })

  it('X: four images or one video, not both; a video from 0.5 s to 140 s', () => {
    expect(mediaErrors(x.check(draft([image(), image(), image(), image(), image()]), {}))).toEqual([
      { pointer: '#/media', code: 'too_many_media', detail: 'has 5 items; X takes at most 4 images per post' },
    ])
    expect(mediaErrors(x.check(draft([video(), video()]), {}))).toEqual([{ pointer: '#/media', code: 'too_many_media', detail: 'has 2 videos; X takes at most 1 video per post' }])
    expect(mediaErrors(x.check(draft([image(), video({ duration_ms: 200_000 })]), {}))).toEqual([
      { pointer: '#/media/1', code: 'media_too_long', detail: 'lasts 3 min 20 s; X takes videos up to 2 min 20 s' },
      { pointer: '#/media', code: 'media_mixed', detail: 'mixes images and a video; X takes images or one video per post, not both: move one to a thread part' },
    ])
    expect(mediaErrors(x.check(draft([image({ alt_text: 'a'.repeat(1_001) })]), {}))).toEqual([
      { pointer: '#/media/0/alt_text', code: 'too_long', detail: 'is 1,001 characters; X keeps alt text of at most 1,000' },
    ])
  })

  it('X: an animated GIF of up to 15 MB (by the chunked upload), other images up to 5 MB', () => {
    const gif = (bytes: number) => image({ content_type: 'image/gif', bytes })
    expect(x.check(draft([gif(14 * 1024 * 1024)]), {})).toEqual([])
    expect(mediaErrors(x.check(draft([gif(16_000_000)]), {}))).toEqual([{ pointer: '#/media/0', code: 'media_too_large', detail: 'is 16 MB; X takes image/gif up to 15.7 MB' }])
    expect(mediaErrors(x.check(draft([image({ bytes: 6_000_000 })]), {}))).toEqual([{ pointer: '#/media/0', code: 'media_too_large', detail: 'is 6 MB; X takes images up to 5.2 MB' }])
    // Declared where clients read the rules.
    expect(x.limits.media.image?.max_bytes_by_type).toEqual({ 'image/gif': 15 * 1024 * 1024 })
  })

  it('says which uploaded media go out without the alt text they carry, where the platform declares no place for it', () => {
    const described = { alt_text: 'A harbour at dusk' }
    const notes = (platform: { limits: PlatformLimits; label: string }, media: DraftMedia[]) => altTextNotSent(platform.limits, media, platform.label)
    // Telegram and Slack keep none; X and Instagram keep it for images, not videos.
    expect(notes(telegram, [image(described), video()])).toEqual([
      { pointer: '#/media/0', code: 'alt_text_not_sent', detail: 'has alt text, but Telegram has no alt text: this image goes out without it' },
    ])
    expect(notes(slack, [image(described)])).toEqual([{ pointer: '#/media/0', code: 'alt_text_not_sent', detail: 'has alt text, but Slack has no alt text: this image goes out without it' }])
    expect(notes(x, [video(described)])).toEqual([{ pointer: '#/media/0', code: 'alt_text_not_sent', detail: 'has alt text, but X keeps alt text for images only: this video goes out without it' }])
    expect(notes(instagram, [image(described), video(described)])).toEqual([
      { pointer: '#/media/1', code: 'alt_text_not_sent', detail: 'has alt text, but Instagram keeps alt text for images only: this video goes out without it' },
    ])
    expect(notes(x, [image(described)])).toEqual([])
    expect(notes(mastodon, [image(described), video(described)])).toEqual([])
  })

  it('Bluesky: images of at most 1 MB; no video, which goes through a video service smm does not speak', () => {
    expect(mediaErrors(bluesky.check(draft([image({ bytes: 1_500_000 })]), {}))).toEqual([
      { pointer: '#/media/0', code: 'media_too_large', detail: 'is 1.5 MB; Bluesky takes images up to 1 MB' },
    ])
    expect(mediaErrors(bluesky.check(draft([video({ duration_ms: 179_000 })]), {}))).toEqual([
      { pointer: '#/media/0', code: 'media_type_unsupported', detail: 'is a video; Bluesky takes no videos from smm: leave it out for Bluesky with an override' },
    ])
  })

  it("Mastodon: the instance's own media_attachments configuration, read when it was connected", () => {
    const settings = { image_size_limit: 1_000_000, video_size_limit: 2_000_000, description_limit: 10, supported_mime_types: ['image/jpeg', 'image/png', 'video/mp4'] }
    expect(mediaErrors(mastodon.check(draft([image({ bytes: 1_200_000, alt_text: 'eleven char' }), image({ content_type: 'image/webp' })]), settings))).toEqual([
      { pointer: '#/media/0', code: 'media_too_large', detail: 'is 1.2 MB; this Mastodon instance takes images up to 1 MB' },
      { pointer: '#/media/0/alt_text', code: 'too_long', detail: 'is 11 characters; this Mastodon instance keeps alt text of at most 10' },
      { pointer: '#/media/1', code: 'media_type_unsupported', detail: 'is image/webp; this Mastodon instance takes images of type image/jpeg, image/png: convert it to one of them, or leave this platform out' },
    ])
  })

  it('Telegram: an album mixes photos and videos; no alt text to keep, so none is refused (validation notes it instead)', () => {
    expect(telegram.check(draft([image({ alt_text: 'x'.repeat(5_000) }), video()]), {})).toEqual([])
    expect(mediaErrors(telegram.check(draft([image({ width: 21_000, height: 500 })]), {}))).toEqual([
      { pointer: '#/media/0', code: 'media_too_big', detail: 'is 21,000 pixels across (21000×500); Telegram takes images at most 10,000 pixels across' },
      { pointer: '#/media/0', code: 'media_aspect_ratio', detail: 'has an aspect ratio of 42 (21000×500, width divided by height); Telegram takes images from 0.05 to 20: crop it' },
    ])
  })
})
