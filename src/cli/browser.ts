import { spawn } from 'node:child_process'

/**
 * Opens a URL in the person's browser, the way the desktop does: `open` on macOS, `start` on
 * Windows, `xdg-open` elsewhere. Never fails the command: a machine without a browser (a server
 * over SSH) gets `onFailure`, and the link is already on the screen.
 */
export function openBrowser(url: string, onFailure: (why: string) => void): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]] : ['xdg-open', [url]]
  try {
    const child = spawn(command, args as string[], { detached: true, stdio: 'ignore' })
    child.on('error', (error) => onFailure(error.message))
    child.on('exit', (code) => {
      if (code) onFailure(`${command} exited with ${code}`)
    })
    child.unref()
  } catch (error) {
    onFailure((error as Error).message)
  }
}
