import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Opens `url` in the user's browser when this machine has one to show: $BROWSER, or the desktop's
 * opener (open on macOS, start on Windows, xdg-open under a graphical session). Returns whether it
 * tried; the URL is printed either way, for a person on another machine or a headless one.
 */
export function openBrowser(url: string, env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): boolean {
  const command = browserCommand(env, platform);
  if (command === undefined) return false;
  try {
    const child = spawn(command.program, [...command.args, url], { detached: true, stdio: 'ignore', ...(platform === 'win32' ? { windowsHide: true } : {}) });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

function browserCommand(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): { program: string; args: string[] } | undefined {
  const chosen = env['BROWSER'];
  if (chosen !== undefined && chosen.trim() !== '') return { program: chosen.trim(), args: [] };
  if (platform === 'darwin') return { program: 'open', args: [] };
  if (platform === 'win32') return { program: 'cmd', args: ['/c', 'start', '""'] };
  const graphical = (env['DISPLAY'] ?? '') !== '' || (env['WAYLAND_DISPLAY'] ?? '') !== '';
  return graphical && onPath('xdg-open', env) ? { program: 'xdg-open', args: [] } : undefined;
}

function onPath(program: string, env: Readonly<Record<string, string | undefined>>): boolean {
  return (env['PATH'] ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, program)));
}
