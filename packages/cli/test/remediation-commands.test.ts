// Every `mcpproxy ...` command the reason registry prints (detail and remediation, every variant,
// every code including reserved ones) exists and parses (`--help` parses the whole line, flags
// included), and each one runs for real against a gateway (auth login: auth-login-oauth.test.ts runs
// the remediation's own words against a real authorization server; auth-login.test.ts the --token form,
// which needs an HTTP upstream answering 401).
import { REASONS, type ReasonEntry } from '@mcpproxy/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, runCli, Scratch, serveGateway, waitForServer, type ServedGateway } from './cli-harness.js';

const GROUP_WORDS = new Set(['serve', 'tools', 'servers', 'activity', 'tokens', 'auth']);

/** `mcpproxy <group> ...` runs of words in a sentence (a comma, semicolon or the end stops one). */
function commandsIn(text: string): string[] {
  return [...text.matchAll(/mcpproxy((?: [^\s,;]+)+)/g)]
    .map((match) => `mcpproxy${match[1]!}`.replace(/[.]$/, ''))
    .filter((command) => GROUP_WORDS.has(command.split(' ')[1] ?? ''));
}

const WORDING_COMMANDS = [
  ...new Set(
    Object.values(REASONS as Readonly<Record<string, ReasonEntry>>).flatMap((entry) => {
      const texts: string[] = [entry.wording.detail, entry.wording.remediation];
      for (const variant of Object.values(entry.wording.variants ?? {})) texts.push(variant.detail ?? '', variant.remediation ?? '');
      return texts.flatMap(commandsIn);
    }),
  ),
];
// The payload spec names this one for tracing a check by its request_id.
const COMMANDS = [...WORDING_COMMANDS, 'mcpproxy activity list --request-id {request_id}'];

const fill = (command: string, values: Record<string, string>) => command.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
const argv = (command: string) => command.split(' ').slice(1);

let scratch: Scratch;
let gw: ServedGateway;
beforeAll(async () => {
  scratch = new Scratch();
  gw = await serveGateway(scratch, { servers: [fixtureServer(scratch, 'alpha', [{ name: 'echo' }])] });
  await waitForServer(gw, 'alpha', ['ready']);
});
afterAll(async () => {
  await gw?.stop();
  scratch?.remove();
});

describe('remediation commands of the registry', () => {
  it('the registry names the commands this test expects (a new one must be added to a run below)', () => {
    expect(WORDING_COMMANDS.map((c) => c.split(' ').slice(0, 3).join(' ')).sort()).toEqual(
      [
        'mcpproxy auth login',
        'mcpproxy servers enable',
        'mcpproxy servers list',
        'mcpproxy servers restart',
        'mcpproxy servers unquarantine',
        'mcpproxy tokens create',
        'mcpproxy tools approve',
        'mcpproxy tools enable',
        'mcpproxy tools list',
        'mcpproxy tools list',
        'mcpproxy tools preflight',
      ].sort(),
    );
  });

  it.each(COMMANDS.map((command) => [command]))('%s --help parses (the command and all its flags exist)', async (command) => {
    const run = await runCli([...argv(fill(command, { id: 'alpha:echo', server: 'alpha', request_id: 'req_1' })), '--help']);
    expect([run.code, run.stderr]).toEqual([0, '']);
  });

  it.each(COMMANDS.filter((command) => !command.startsWith('mcpproxy auth login')).map((command) => [command]))('%s runs for real (exit 0)', async (command) => {
    const checked = await runCli(['tools', 'preflight', 'alpha:echo', '-o', 'json', ...gw.flags]);
    const requestId = (JSON.parse(checked.stdout) as { request_id: string }).request_id;
    const tokenName = `t${Math.random().toString(36).slice(2, 10)}`;
    const line = fill(command, { id: 'alpha:echo', server: 'alpha', request_id: requestId }).replace('--name NAME', `--name ${tokenName}`);
    const run = await runCli([...argv(line), ...gw.flags]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).not.toBe('');
  });
});
