import { CliError, messageOf, usageError } from './cli-error.js';
import type { CliIo } from './cli-io.js';
import { CLI_VERSION } from './cli-version.js';
import { parseCommandLine } from './command-line.js';
import { COMMANDS, GROUPS } from './command-registry.js';
import { commandHelp, groupHelp, mainHelp } from './help-text.js';
import { terminalSafeLine } from './output/terminal-safe-line.js';

const HELP = new Set(['-h', '--help']);

/**
 * Runs one command line and returns the exit code. Every failure becomes one line on stderr and
 * exit 1, whatever was thrown: a person or a CI log never sees a stack trace.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    // The message may quote the gateway or an upstream: one line, shown literally.
    io.stderr.write(`mcpproxy: ${terminalSafeLine(error instanceof CliError ? error.message : `unexpected failure: ${messageOf(error)}`)}\n`);
    return 1;
  }
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, second] = argv;
  if (first === undefined || HELP.has(first) || first === 'help') {
    // A bare `mcpproxy` is a usage error: the help goes to stderr and the exit code is 1.
    (first === undefined ? io.stderr : io.stdout).write(mainHelp(COMMANDS));
    return first === undefined ? 1 : 0;
  }
  if (first === '--version' || first === '-V' || first === 'version') {
    io.stdout.write(`${CLI_VERSION}\n`);
    return 0;
  }
  const spec =
    COMMANDS.find((command) => command.words.length === 2 && command.words[0] === first && command.words[1] === second) ??
    COMMANDS.find((command) => command.words.length === 1 && command.words[0] === first);
  if (spec === undefined) {
    const group = GROUPS[first];
    if (group === undefined) throw usageError(`unknown command ${JSON.stringify(first)} (see: mcpproxy --help)`);
    const members = COMMANDS.filter((command) => command.words[0] === first);
    if (second === undefined || HELP.has(second)) {
      (second === undefined ? io.stderr : io.stdout).write(groupHelp(first, group, members));
      return second === undefined ? 1 : 0;
    }
    throw usageError(`unknown command ${JSON.stringify(`${first} ${second}`)}; one of: ${members.map((m) => m.words[1]).join(', ')} (see: mcpproxy ${first} --help)`);
  }
  const args = argv.slice(spec.words.length);
  const end = args.indexOf('--');
  if ((end === -1 ? args : args.slice(0, end)).some((arg) => HELP.has(arg))) {
    // The rest of the line must still be made of this command's options: `--help` proves a
    // command line parses (the remediation test relies on it) without running it.
    parseCommandLine(spec, args.filter((arg) => !HELP.has(arg)), { countPositionals: false });
    io.stdout.write(commandHelp(spec));
    return 0;
  }
  const parsed = parseCommandLine(spec, args);
  return spec.run({ ...parsed, io });
}
