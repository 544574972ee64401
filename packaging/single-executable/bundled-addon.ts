// The native addons a single executable carries as SEA assets (`npm run build:binary` names
// them), and what they were built for.
import { getAsset } from 'node:sea'
import { loadAddon, platformMismatch, type Target } from './native-addon.js'

/** The asset that records the build's target (written by scripts/build-binary.ts). */
export const TARGET_ASSET = 'target.json'

/** Why the addons in this binary cannot run here, in one line; undefined when they can. */
export function checkTarget(): string | undefined {
  const builtFor = JSON.parse(getAsset(TARGET_ASSET, 'utf8')) as Target
  return platformMismatch(builtFor, { platform: process.platform, arch: process.arch })
}

const loaded = new Map<string, unknown>()

/**
 * Stands in for the `bindings` package in the bundle (better-sqlite3 calls
 * `require('bindings')('better_sqlite3.node')`): the addon of that name, from its asset.
 */
export function bindings(name: string): unknown {
  if (!loaded.has(name)) loaded.set(name, loadAddon(name, new Uint8Array(getAsset(name))))
  return loaded.get(name)
}
