import type { GatewayReload } from './gateway-reload.js';

/** The log lines that say what a reload changed, one per change, and which settings wait for a restart. */
export function reloadLogLines(reload: GatewayReload): string[] {
  const lines: string[] = [];
  const { servers, changedKeys } = reload;
  for (const server of servers.added) lines.push(`server "${server.name}" added${server.enabled ? '' : ' (disabled)'}`);
  for (const name of servers.removed) lines.push(`server "${name}" removed: its connection is closed and its tools are no longer listed`);
  for (const server of servers.reconnected) lines.push(`server "${server.name}" changed (${keysOf(changedKeys, server.name)}): reconnecting`);
  for (const server of servers.updated) lines.push(`server "${server.name}" changed (${keysOf(changedKeys, server.name)}): applied, its connection kept`);
  for (const { server, why } of reload.endedLogins) {
    lines.push(`server "${server}": its OAuth login waiting for the browser's redirect ended (${why === 'removed' ? 'the server was removed' : `its url or oauth settings changed; start it again: mcpproxy auth login ${server}`})`);
  }
  if (reload.profilesChanged) lines.push('profiles changed: applied');
  for (const setting of reload.restartNeeded) {
    const values = setting.running === undefined ? '' : ` (running ${setting.running}, file ${setting.file ?? ''})`;
    lines.push(`${setting.key} changed${values}: needs a restart; the gateway keeps the running value until then`);
  }
  if (lines.length === 0) lines.push('no change');
  return lines;
}

function keysOf(changed: ReadonlyMap<string, readonly string[]>, name: string): string {
  return (changed.get(name) ?? []).join(', ');
}
