// Small, real files of each media type, made here so that the tests need no fixtures and no
// image tools: the bytes are what the formats' specifications say, at any size a test asks for.
import { crc32, deflateSync } from 'node:zlib'
import * as MP4Box from 'mp4box'

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A PNG of `width` × `height` grey pixels (rows compress to almost nothing, so it stays small). */
export function png(width: number, height: number): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 0, 0, 0, 0], 8) // 8-bit greyscale
  const rows = Buffer.alloc((width + 1) * height, 0x80)
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0 // filter type of each row
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))])
}

/**
 * A JPEG's structure at `width` × `height`: start of image, JFIF, a frame header with the size,
 * `padding` bytes of comment (to make it as big as a test needs), end of image.
 */
export function jpeg(width: number, height: number, padding = 0): Buffer {
  const segment = (marker: number, data: Buffer) => {
    const head = Buffer.from([0xff, marker, 0, 0])
    head.writeUInt16BE(data.length + 2, 2)
    return Buffer.concat([head, data])
  }
  const sof = Buffer.from([8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0])
  const comments: Buffer[] = []
  for (let left = padding; left > 0; left -= 65_000) comments.push(segment(0xfe, Buffer.alloc(Math.min(left, 65_000), 0x20)))
  return Buffer.concat([Buffer.from([0xff, 0xd8]), segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')), ...comments, segment(0xc0, sof), Buffer.from([0xff, 0xd9])])
}

/** A GIF89a of `width` × `height`, one colour. */
export function gif(width: number, height: number): Buffer {
  const screen = Buffer.alloc(7)
  screen.writeUInt16LE(width, 0)
  screen.writeUInt16LE(height, 2)
  screen.set([0x80, 0, 0], 4)
  const image = Buffer.alloc(10)
  image[0] = 0x2c
  image.writeUInt16LE(width, 5)
  image.writeUInt16LE(height, 7)
  return Buffer.concat([Buffer.from('GIF89a', 'latin1'), screen, Buffer.from([0, 0, 0, 0xff, 0xff, 0xff]), image, Buffer.from([2, 2, 0x4c, 0x01, 0, 0x3b])])
}

/** A lossless WebP's header at `width` × `height`. */
export function webp(width: number, height: number): Buffer {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14)
  const vp8l = Buffer.alloc(10)
  vp8l[0] = 0x2f
  vp8l.writeUInt32LE(bits >>> 0, 1)
  const chunkHead = Buffer.concat([Buffer.from('VP8L', 'latin1'), Buffer.alloc(4)])
  chunkHead.writeUInt32LE(vp8l.length, 4)
  const riff = Buffer.concat([Buffer.from('WEBP', 'latin1'), chunkHead, vp8l])
  const head = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.alloc(4)])
  head.writeUInt32LE(riff.length, 4)
  return Buffer.concat([head, riff])
}

/**
 * An MP4 (or, with `quicktime`, a MOV) with one H.264 track of `width` × `height` lasting
 * `durationMs`, written by mp4box; `padding` bytes of media data make it as large as a test needs.
 */
export function mp4(width: number, height: number, durationMs: number, { padding = 0, quicktime = false }: { padding?: number; quicktime?: boolean } = {}): Buffer {
  const file = MP4Box.createFile()
  file.init({ brands: quicktime ? ['qt  '] : ['isom', 'mp42'], timescale: 1000, duration: durationMs })
  const avcC = new Uint8Array([1, 0x42, 0, 0x1e, 0xff, 0xe1, 0, 4, 0x67, 0x42, 0, 0x1e, 1, 0, 2, 0x68, 0xce]).buffer
  const track = file.addTrack({ type: 'avc1', width, height, timescale: 1000, duration: durationMs, media_duration: durationMs, avcDecoderConfigRecord: avcC })
  const samples = 10
  const size = Math.max(16, Math.ceil(padding / samples))
  for (let i = 0; i < samples; i++) file.addSample(track, new Uint8Array(size), { duration: durationMs / samples, is_sync: i === 0 })
  const stream = file.getBuffer()
  const bytes = Buffer.from(stream.buffer, 0, stream.byteLength)
  if (!quicktime) return bytes
  // mp4box writes its own major brand; a QuickTime file says `qt  ` first.
  const copy = Buffer.from(bytes)
  copy.write('qt  ', 8, 'latin1')
  return copy
}
