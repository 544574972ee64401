// `node --import ./bench/module-trace.js …` (bench/cli-start.ts): writes every module the process
// loaded, ESM and CommonJS alike, one URL a line, to the file named by SMM_TRACE_MODULES, and
// `intl:Segmenter` if it built a grapheme segmenter (ICU's break rules: tens of ms, like a module).
// Plain JavaScript: it runs in the measured process, without tsx.
import { appendFileSync } from 'node:fs'
import { createRequire, register } from 'node:module'
import { pathToFileURL } from 'node:url'

const out = process.env.SMM_TRACE_MODULES
if (out) {
  // ESM (and anything imported) passes the load hook, which runs on the loaders' thread.
  register('./module-trace-hooks.js', import.meta.url, { data: { out } })
  // require() inside CommonJS does not pass it on Node 20: its cache says what was loaded.
  const require = createRequire(import.meta.url)
  let segmenting = false
  Intl.Segmenter = new Proxy(Intl.Segmenter, {
    construct(target, args) {
      segmenting = true
      return Reflect.construct(target, args)
    },
  })
  process.on('exit', () => {
    const loaded = Object.keys(require.cache).map((file) => pathToFileURL(file).href)
    if (segmenting) loaded.push('intl:Segmenter')
    if (loaded.length > 0) appendFileSync(out, loaded.join('\n') + '\n')
  })
}
