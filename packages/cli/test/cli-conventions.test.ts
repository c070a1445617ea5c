// Conventions of the built binary that hold for every command: --help with examples, --version,
// flag errors as one line on stderr with exit 1, never a stack trace.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/command-registry.js';
import { freePort, isOneLineError, runCli } from './cli-harness.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('help and version', () => {
  it.each(COMMANDS.map((command) => [command.words.join(' ')]))('mcpproxy %s --help: usage, options, examples; exit 0', async (words) => {
    const run = await runCli([...words.split(' '), '--help']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(new RegExp(`^Usage: mcpproxy ${words}`));
    expect(run.stdout).toContain('\nOptions:\n');
    expect(run.stdout.slice(run.stdout.indexOf('\nExamples:\n'))).toContain(` mcpproxy ${words}`);
    expect((await runCli([...words.split(' '), '-h'])).stdout).toBe(run.stdout);
  });

  it('every example in the help names its own command', () => {
    for (const command of COMMANDS) {
      for (const example of command.examples) expect(example.replace(/^\S+=\S+ /, '').replace(/^printf .*\| /, '')).toMatch(new RegExp(`^mcpproxy ${command.words.join(' ')}( |$)`));
    }
  });

  it('mcpproxy --help lists every command; a group without a command shows its commands', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    for (const command of COMMANDS) expect(run.stdout).toContain(`  ${command.words.join(' ')} `);
    const group = await runCli(['servers']);
    expect(group.code).toBe(1);
    expect(group.stderr).toContain('mcpproxy servers restart');
    expect((await runCli(['tools', '--help'])).code).toBe(0);
  });

  it('--version and -V print the package version', async () => {
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect((await runCli(['-V'])).stdout).toBe(`${VERSION}\n`);
  });

  it('a bare mcpproxy prints the help on stderr and exits 1', async () => {
    const run = await runCli([]);
    expect([run.code, run.stdout]).toEqual([1, '']);
    expect(run.stderr).toContain('Usage: mcpproxy <command>');
  });
});

describe('flag errors: exit 1, one line on stderr, nothing on stdout', () => {
  it.each([
    [['nope'], 'unknown command "nope"'],
    [['tools', 'nope'], 'unknown command "tools nope"'],
    [['tools', 'preflight'], 'missing tool ids'],
    [['tools', 'preflight', 'a:b', '--bogus'], 'unknown option --bogus'],
    [['tools', 'preflight', 'a:b', '-x'], 'unknown option -x'],
    [['tools', 'preflight', 'a:b', '--profile'], 'option --profile needs a value'],
    [['tools', 'preflight', 'a:b', '-o'], 'option --output needs a value'],
    [['tools', 'preflight', 'a:b', '--in-band=yes'], 'option --in-band takes no value'],
    [['tools', 'preflight', 'a:b', '--in-band', '--wait', '1s'], '--wait is REST-only'],
    [['tools', 'preflight', 'a:b', '--api-key', 'k', '--token', 't'], 'give --api-key or --token, not both'],
    [['tools', 'preflight', 'a:b', '--url', 'ftp://x'], '--url: expected an http(s) URL'],
    [['tools', 'list', 'extra'], 'unexpected argument "extra"'],
    [['tools', 'approve'], 'give the tool ids to approve, or --server S --all'],
    [['tools', 'approve', 'a:b', '--server', 's', '--all'], 'give tool ids, or --server S --all, not both'],
    [['tools', 'approve', '--server', '--all'], 'option --server needs a value'],
    [['tools', 'disable'], 'missing tool id'],
    [['tools', 'enable', 'a:b', 'c:d'], 'too many arguments'],
    [['servers', 'restart'], 'missing server name'],
    [['activity', 'list', '--type', 'x'], '--type: expected preflight or tool_call'],
    [['activity', 'list', '--limit', '0'], '--limit: expected a whole number from 1 to 1000'],
    [['activity', 'list', '--limit', 'ten'], '--limit: expected a whole number'],
    [['tokens', 'create', '--servers', 'a'], 'missing --name'],
    [['tokens', 'create', '--name', 'n'], 'missing --servers'],
    [['tokens', 'revoke'], 'missing token name'],
    [['auth', 'login', 'srv', '--token', 't', '--token-stdin'], 'give one of --token T and --token-stdin, not both'],
    [['auth', 'login', 'srv', '--token-stdin', '--no-browser'], '--no-browser is for the OAuth login'],
    [['auth', 'logout'], 'missing server name'],
    [['auth', 'status', 'extra'], 'unexpected argument "extra"'],
    [['serve', '--port', '1'], 'unknown option --port'],
    [['tools', 'list', '--config', '/nonexistent/mcpproxy.json'], 'cannot read the configuration /nonexistent/mcpproxy.json'],
    [['tools', 'preflight', 'a:b', '--help', '--bogus'], 'unknown option --bogus'],
  ])('mcpproxy %j', async (args, message) => {
    const run = await runCli(args);
    expect([run.code, run.stdout]).toEqual([1, '']);
    expect(isOneLineError(run.stderr)).toBe(true);
    expect(run.stderr).toContain(message);
  });

  it('an unreachable gateway is one line that says where and what to do', async () => {
    const port = await freePort();
    const run = await runCli(['servers', 'list', '--url', `http://127.0.0.1:${port}`, '--api-key', 'k']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`mcpproxy: cannot reach the gateway at http://127.0.0.1:${port}: connection refused (is it running? start it with: mcpproxy serve)\n`);
  });
});
