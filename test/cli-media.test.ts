import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../src/time.js'
import { cliHomeFor, runCli, runInTerminal, type CliResult } from './helpers/cli.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { jpeg, mp4, png } from './helpers/media-files.js'
import { feedAccount, liftLimits } from './helpers/posts.js'

let t: TestDaemon
let home: ReturnType<typeof cliHomeFor>
let brand: string

beforeAll(async () => {
  t = await startTestDaemon({ clock: new ManualClock(Date.now()), backgroundWorkers: false })
  await liftLimits(t)
  home = cliHomeFor(t)
  brand = await feedAccount(t, 'Brand')
})
afterAll(async () => {
  home.remove()
  await t.stop()
})

const smm = (args: string[], input?: string) => runCli(args, { env: home.env, input })
const json = (res: CliResult) => JSON.parse(res.stdout)
const get = async (path: string) => (await t.http.get(path, { key: t.key })).body
const file = (name: string, bytes: Buffer | string) => {
  const path = join(home.dir, name)
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, bytes)
  return path
}
const mediaIds = async () => (await get('/v1/media?limit=100')).data.map((m: { id: string }) => m.id) as string[]
const sha = (path: string) => execFileSync('sha256sum', [path], { encoding: 'utf8' }).split(' ')[0]

describe('smm media', () => {
  it('uploads a file with its alt text, then shows, lists, describes and deletes it', async () => {
    const photo = file('photo.png', png(1200, 800))
    const uploaded = await smm(['media', 'upload', photo, '--alt', 'A grey field', '--json'])
    expect(uploaded).toMatchObject({ code: 0, stderr: '' })
    const media = json(uploaded)
    expect(media).toMatchObject({ content_type: 'image/png', width: 1200, height: 800, alt_text: 'A grey field', sha256: sha(photo) })
    expect(await get(`/v1/media/${media.id}`)).toEqual(media)
    // The daemon serves the very bytes of the file.
    const served = await t.http.get(new URL(media.url).pathname)
    expect(served.headers).toMatchObject({ etag: `"${sha(photo)}"`, 'content-length': String(readFileSync(photo).length) })

    const [human, shown, listed, video] = await Promise.all([
      smm(['media', 'upload', file('second.jpg', jpeg(640, 480))]),
      smm(['media', 'show', media.id]),
      smm(['media', 'list']),
      smm(['media', 'upload', file('clip.mov', mp4(1920, 1080, 12_500, { quicktime: true })), '--json']),
    ])
    expect(human).toMatchObject({ code: 0, stderr: '' })
    expect(human.stdout).toMatch(/^Media: +med_\w{26}\nType: +image\/jpeg \(JPEG 640×480\)\n/)
    expect(human.stdout).toMatch(/\nAlt text: +-\n/)
    expect(human.stdout).toMatch(/\n\nAttach it with: smm posts create --media med_\w{26} …\n$/)
    expect(shown.stdout).toContain(`Alt text: A grey field\n`)
    expect(shown.stdout).toContain(`URL:      ${media.url}\n`)
    expect(listed.stdout).toMatch(new RegExp(`${media.id} .* PNG 1200×800 .*“A grey field”`))
    expect(json(video)).toMatchObject({ content_type: 'video/quicktime', width: 1920, height: 1080, duration_ms: 12_500 })

    const updated = await smm(['media', 'update', media.id, '--alt', 'A field of grey', '--json'])
    expect(json(updated).alt_text).toBe('A field of grey')
    expect((await smm(['media', 'update', media.id, '--no-alt', '--json'])).stdout).toContain('"alt_text": null')

    // In use by a scheduled post: kept, exit 5, the post named.
    const post = await smm(['posts', 'create', '--text', 'With it', '--in', '2h', '--media', media.id, '--json'])
    expect(post.code, post.stderr).toBe(0)
    const inUse = await smm(['media', 'delete', media.id, '--yes'])
    expect(inUse.code).toBe(5)
    expect(inUse.stderr).toContain(json(post).id)
    await smm(['posts', 'cancel', json(post).id, '--yes'])
    expect(await smm(['media', 'delete', media.id, '--yes'])).toEqual({ code: 0, stdout: `Deleted media ${media.id}.\n`, stderr: '' })
    expect((await t.http.get(new URL(media.url).pathname)).status).toBe(404)
    expect((await smm(['media', 'show', media.id])).code).toBe(4)
  })

  it('refuses a missing file, a directory, a pipe, an empty file and a type smm does not take, naming the file and the types it takes', async () => {
    const before = await mediaIds()
    mkdirSync(join(home.dir, 'album'), { recursive: true })
    const fifo = join(home.dir, 'pipe')
    execFileSync('mkfifo', [fifo])
    const [missing, directory, pipe, empty, svg, pdf, odd] = await Promise.all([
      smm(['media', 'upload', join(home.dir, 'nope.jpg')]),
      smm(['media', 'upload', join(home.dir, 'album')]),
      smm(['media', 'upload', fifo]),
      smm(['media', 'upload', file('empty.png', '')]),
      smm(['media', 'upload', file('logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>')]),
      smm(['media', 'upload', file('brochure.jpg', '%PDF-1.7\n1 0 obj\n<<>>\nendobj\n')]),
      smm(['media', 'upload', join(home.dir, 'bad\u001b[2Jname.png')]),
    ])
    const types = 'smm takes JPEG, PNG, GIF and WebP images, MP4 and QuickTime (.mov) videos'
    expect(missing).toEqual({ code: 2, stdout: '', stderr: `Error: FILE: ${home.dir}/nope.jpg: no such file\n` })
    expect(directory).toEqual({ code: 2, stdout: '', stderr: `Error: FILE: ${home.dir}/album is a directory; name one file\n` })
    expect(pipe.stderr).toBe(`Error: FILE: ${fifo} is not a regular file (a device, a socket or a pipe cannot be uploaded)\n`)
    expect(empty).toEqual({ code: 2, stdout: '', stderr: `Error: FILE: ${home.dir}/empty.png is empty\n` })
    expect(svg).toEqual({ code: 2, stdout: '', stderr: `Error: FILE: ${home.dir}/logo.svg is not an image or a video smm recognises; ${types}\n` })
    // Named .jpg, but its bytes are a PDF: the bytes say what it is.
    expect(pdf).toEqual({ code: 2, stdout: '', stderr: `Error: FILE: ${home.dir}/brochure.jpg is a PDF file (application/pdf); ${types}\n` })
    // A name with control characters is shown with them made visible, never obeyed.
    expect(odd).toEqual({ code: 2, stdout: '', stderr: `Error: FILE: "${home.dir}/bad␛[2Jname.png": no such file\n` })
    expect(await mediaIds()).toEqual(before)
  })

  it('refuses a file it cannot read', async () => {
    // As root every file can be read: the CLI runs as nobody here, on a copy of the home it can enter.
    const secret = file('locked/secret.png', png(10, 10))
    chmodSync(secret, 0o000)
    for (const dir of [home.dir, join(home.dir, 'locked')]) chmodSync(dir, 0o755)
    chmodSync(join(home.dir, 'daemon-ca.pem'), 0o644)
    const asNobody = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'] : []
    const res = await runCli(['media', 'upload', secret], { env: home.env, wrap: asNobody })
    expect(res).toEqual({ code: 2, stdout: '', stderr: `Error: FILE: ${secret} cannot be read (permission denied)\n` })
  })
})

describe('smm posts create and update --media', () => {
  it('uploads local files, keeps URLs as links and names uploaded media by id, each with the --alt in its place', async () => {
    const known = json(await smm(['media', 'upload', file('known.png', png(400, 400)), '--alt', 'Its own alt', '--json']))
    const created = await smm([
      'posts', 'create', '--text', 'Launch', '--in', '2h',
      '--media', file('post/office.jpg', jpeg(1200, 800)), '--alt', 'A bright room with six desks',
      '--media', 'https://example.com/hosted.png',
      '--media', known.id, '--alt', 'The post’s own alt',
      '--json',
    ])
    expect(created).toMatchObject({ code: 0, stderr: '' })
    const post = json(created)
    expect(post.media_urls).toEqual(['https://example.com/hosted.png'])
    expect(post.media).toMatchObject([
      { content_type: 'image/jpeg', width: 1200, height: 800, alt_text: 'A bright room with six desks' },
      { id: known.id, alt_text: 'The post’s own alt' },
    ])
    // A file's --alt is the media's own; an uploaded one's is the post's, and the media keeps its own.
    expect((await get(`/v1/media/${post.media[0].id}`)).alt_text).toBe('A bright room with six desks')
    expect((await get(`/v1/media/${known.id}`)).alt_text).toBe('Its own alt')

    const shown = await smm(['posts', 'show', post.id])
    expect(shown.stdout).toContain(
      `Media:\n  1. https://example.com/hosted.png\n  2. ${post.media[0].id} JPEG 1200×800 “A bright room with six desks”\n  3. ${known.id} PNG 400×400 “The post’s own alt”\n`,
    )
    expect((await smm(['posts', 'list'])).stdout).toMatch(new RegExp(`${post.id} .* Launch`))

    const replaced = await smm(['posts', 'update', post.id, '--media', file('post/poster.png', png(800, 1000)), '--alt', 'The poster', '--json'])
    expect(replaced).toMatchObject({ code: 0, stderr: '' })
    expect(json(replaced)).toMatchObject({ media_urls: [], media: [{ content_type: 'image/png', alt_text: 'The poster' }] })
    const human = await smm(['posts', 'update', post.id, '--no-media'])
    expect(human).toEqual({ code: 0, stdout: expect.stringMatching(/^Updated the media of post pst_\w+; it is scheduled for .* on feed\.\n$/), stderr: '' })
    expect(await get(`/v1/posts/${post.id}`)).toMatchObject({ media_urls: [], media: [] })
  })

  it('refuses a bad file before uploading anything, an --alt for a link, and an --alt before any --media or twice for one', async () => {
    const before = await mediaIds()
    const good = file('post/good.png', png(100, 100))
    const [second, forLink, tooMany, dryRun] = await Promise.all([
      smm(['posts', 'create', '--text', 'x', '--media', good, '--media', join(home.dir, 'post')]),
      smm(['posts', 'create', '--text', 'x', '--media', good, '--alt', 'ok', '--media', 'https://example.com/a.png', '--alt', 'for the link']),
      smm(['posts', 'create', '--text', 'x', '--alt', 'first', '--media', good, '--alt', 'one', '--alt', 'two']),
      smm(['posts', 'create', '--text', 'x', '--media', good, '--in', '1h', '--dry-run']),
    ])
    expect(second).toEqual({ code: 2, stdout: '', stderr: `Error: --media 2: ${home.dir}/post is a directory; name one file\n` })
    expect(forLink).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --alt: --media 2 is a link (https://example.com/a.png), which carries no alt text; upload the file (--media ./FILE) to describe it\n',
    })
    expect(tooMany).toEqual({ code: 2, stdout: '', stderr: 'Error: --alt "first" comes before any --media: give it right after the --media it describes\n' })
    const twice = await smm(['posts', 'create', '--text', 'x', '--media', good, '--alt', 'one', '--alt', 'two'])
    expect(twice).toEqual({ code: 2, stdout: '', stderr: 'Error: --media 1 has two --alt; give each --media at most one, right after it\n' })
    // A dry run checks the file here and uploads nothing.
    expect(dryRun).toMatchObject({ code: 0, stderr: '' })
    expect(dryRun.stdout).toContain("The file is fine here; uploaded when the post is created, it is checked against each platform's media rules then.\n")
    expect(await mediaIds()).toEqual(before)
  })

  it('draws a progress bar on a terminal for a large file, and nothing on a pipe', async () => {
    const big = file('big.mp4', mp4(640, 360, 5_000, { padding: 6_000_000 }))
    const terminal = await runInTerminal(['media', 'upload', big], { env: home.env, dialogue: [] })
    expect(terminal.code, terminal.stdout).toBe(0)
    expect(terminal.stdout).toContain('Uploading big.mp4 [')
    expect(terminal.stdout).toMatch(/\[█{24}\] 100% {2}6 MB of 6 MB\n/)
    expect(terminal.stdout).toMatch(/Media: +med_\w{26}/)
    const piped = await smm(['media', 'upload', big, '--json'])
    expect(piped).toMatchObject({ code: 0, stderr: '' })
    expect(json(piped).bytes).toBe(readFileSync(big).length)
    // A small file on a terminal goes without one.
    const small = await runInTerminal(['media', 'upload', file('small.png', png(10, 10))], { env: home.env, dialogue: [] })
    expect(small.stdout).not.toContain('Uploading')
  })
})

describe('smm posts import with media files', () => {
  it('uploads files named relative to the CSV file, once each, beside links and uploaded media', async () => {
    const known = json(await smm(['media', 'upload', file('known2.png', png(300, 300)), '--json']))
    file('campaign/img/a.png', png(500, 500))
    file('campaign/b.jpg', jpeg(800, 600))
    const csv = file(
      'campaign/posts.csv',
      [
        'account,platforms,content,at,media_urls,part',
        `Brand,feed,First,tomorrow 9am,img/a.png https://example.com/x.png ${known.id},`,
        ',,Its thread part,,./b.jpg,thread',
        'Brand,feed,Second,tomorrow 10am,img/../img/a.png,',
        '',
      ].join('\n'),
    )
    const before = await mediaIds()
    const dry = await smm(['posts', 'import', csv, '--dry-run'])
    expect(dry).toMatchObject({ code: 0, stderr: '' })
    expect(await mediaIds()).toEqual(before)

    // From another directory: the paths are the CSV's, not the shell's.
    const res = await runCli(['posts', 'import', csv, '--json'], { env: home.env, wrap: ['env', '-C', '/'] })
    expect(res).toMatchObject({ code: 0, stderr: '' })
    const [first, second] = json(res).data
    expect(first.media_urls).toEqual(['https://example.com/x.png'])
    expect(first.media.map((m: { id: string }) => m.id)).toEqual([expect.stringMatching(/^med_/), known.id])
    expect(first.thread[0].media).toMatchObject([{ content_type: 'image/jpeg', width: 800, height: 600 }])
    // The same file twice is one upload.
    expect(second.media.map((m: { id: string }) => m.id)).toEqual([first.media[0].id])
    expect((await mediaIds()).length).toBe(before.length + 2)
  })

  it('refuses paths that leave the CSV file’s folder, absolute paths, missing files and other types, each at its line', async () => {
    file('outside.png', png(10, 10))
    file('campaign2/notes.txt', 'just text')
    mkdirSync(join(home.dir, 'campaign2'), { recursive: true })
    symlinkSync(join(home.dir, 'outside.png'), join(home.dir, 'campaign2', 'link.png'))
    const csv = file(
      'campaign2/posts.csv',
      [
        'account,platforms,content,at,media_urls',
        'Brand,feed,Up,tomorrow 9am,../outside.png',
        `Brand,feed,Absolute,tomorrow 9am,${join(home.dir, 'outside.png')}`,
        'Brand,feed,Linked,tomorrow 9am,link.png',
        'Brand,feed,Missing,tomorrow 9am,gone.png',
        'Brand,feed,Text,tomorrow 9am,notes.txt',
        '',
      ].join('\n'),
    )
    const before = await mediaIds()
    const res = await smm(['posts', 'import', csv])
    const folder = join(home.dir, 'campaign2')
    expect(res).toEqual({
      code: 2,
      stdout: '',
      stderr: [
        `Error: 5 lines of ${csv} are invalid; nothing was created:`,
        `  line 2, media_urls: ../outside.png leads out of the import file's folder (${folder}); put the file in it or in a folder under it`,
        `  line 3, media_urls: ${home.dir}/outside.png is an absolute path; name files relative to the import file's folder (${folder})`,
        `  line 4, media_urls: link.png leads out of the import file's folder (${folder}); put the file in it or in a folder under it`,
        `  line 5, media_urls: gone.png: no such file (looked for ${folder}/gone.png); files are named relative to the import file's folder, and separated by spaces`,
        '  line 6, media_urls: notes.txt is not an image or a video smm recognises; smm takes JPEG, PNG, GIF and WebP images, MP4 and QuickTime (.mov) videos',
        '',
      ].join('\n'),
    })
    expect(await mediaIds()).toEqual(before)
  })

  it('exports uploaded media by id, and imports them back', async () => {
    const created = json(await smm(['posts', 'create', '--text', 'Round trip', '--at', 'tomorrow 11am', '--media', file('rt.png', png(50, 50)), '--json']))
    const exported = await smm(['posts', 'export', '--status', 'scheduled'])
    expect(exported.code, exported.stderr).toBe(0)
    expect(exported.stdout).toContain(`,Round trip,${created.media[0].id},`)
    const again = await smm(['posts', 'import', '-', '--json'], exported.stdout.split('\n').filter((line, i) => i === 0 || line.includes('Round trip')).join('\n'))
    expect(again).toMatchObject({ code: 0, stderr: '' })
    expect(json(again).data[0].media.map((m: { id: string }) => m.id)).toEqual([created.media[0].id])
    // Alt text has no column: a post whose media carry it is refused, pointing at JSON.
    await smm(['posts', 'create', '--text', 'Described', '--at', 'tomorrow 11am', '--media', file('d.png', png(50, 50)), '--alt', 'Said'])
    const refused = await smm(['posts', 'export', '--status', 'scheduled'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/gives its uploaded media alt text, and no column holds alt text\. Export with --format json/)
  })
})
