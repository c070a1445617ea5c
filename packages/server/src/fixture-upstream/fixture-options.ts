import { parseArgs } from 'node:util';

export interface FixtureOptions {
  /** Serve Streamable HTTP on 127.0.0.1:<port> (0 = any free port); absent = stdio. */
  readonly httpPort?: number;
  readonly toolsFile?: string;
  /** Use the bundled demo tools (when no tools file is given). */
  readonly demo: boolean;
  readonly startDelayMs: number;
  /** HTTP only: answer 401 unless `Authorization: Bearer <token>`. */
  readonly requireToken?: string;
  readonly countFile?: string;
  /** HTTP only: the number of event streams opened to clients so far (see StreamCounter). */
  readonly streamsFile?: string;
  /** Write this process's pid there at start (tests signal it: SIGHUP, SIGUSR2). */
  readonly pidFile?: string;
  readonly pageSize: number;
  readonly name: string;
  /** How tools/call answers while overloaded (see fixture-overload.ts); re-read on SIGHUP. */
  readonly overloadFile?: string;
  /** Append what a test reads back (cancellations, answers to the fixture's own requests) here, one JSON line each. */
  readonly eventsFile?: string;
}

export const FIXTURE_USAGE = `usage: node dist/fixture-upstream/main.js [options]
  --http PORT           serve Streamable HTTP on 127.0.0.1:PORT (0 = free port) instead of stdio;
                        prints {"url": ...} on stdout once listening
  --tools FILE          tool list (JSON); re-read on SIGHUP, which sends tools/list_changed when it changed;
                        {"tools": [...], "resources": [{uri, name, text}], "prompts": [{name, text}]}
                        also serves those (list_changed and resources/updated on SIGHUP, as they change)
  --demo                the bundled demo tools (default when no --tools)
  --start-delay-ms N    answer nothing for N ms after start (the gateway sees it initializing);
                        SIGUSR1 ends the delay at once
  --require-token T     HTTP: 401 with WWW-Authenticate unless "Authorization: Bearer T"
  --count-file FILE     write the number of JSON-RPC messages received to FILE after each one
  --streams-file FILE   HTTP: write the number of event streams opened so far (2025 GET streams,
                        2026 subscriptions/listen) to FILE after each one
  --pid-file FILE       write the process id to FILE at start
  --page-size N         paginate tools/list by N (default: one page)
  --name NAME           serverInfo name (default mcp-fixture)
  --overload FILE       how tools/call answers, re-read on SIGHUP: {} normally; {"status": 429|503,
                        "retry_after"?: "2"} that HTTP status (HTTP only); {"error_code": N} that
                        JSON-RPC error. A missing file answers normally
  --events-file FILE    append one JSON line per cancellation received and per answer to a request
                        the fixture sent its client (see fixture-events.ts)
SIGUSR2 or calling the unlisted tool "exit" makes the process exit.`;

export type ParsedFixtureOptions = { ok: true; options: FixtureOptions } | { ok: false; message: string };

export function parseFixtureOptions(argv: readonly string[]): ParsedFixtureOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        http: { type: 'string' },
        tools: { type: 'string' },
        demo: { type: 'boolean', default: false },
        'start-delay-ms': { type: 'string' },
        'require-token': { type: 'string' },
        'count-file': { type: 'string' },
        'streams-file': { type: 'string' },
        'pid-file': { type: 'string' },
        'page-size': { type: 'string' },
        name: { type: 'string' },
        overload: { type: 'string' },
        'events-file': { type: 'string' },
      },
    }));
  } catch (cause) {
    return { ok: false, message: cause instanceof Error ? cause.message : String(cause) };
  }
  const port = optionalInteger(values.http, '--http', 0, 65_535);
  const delay = optionalInteger(values['start-delay-ms'], '--start-delay-ms', 0, 3_600_000);
  const pageSize = optionalInteger(values['page-size'], '--page-size', 1, 1_000_000);
  for (const parsed of [port, delay, pageSize]) if (!parsed.ok) return parsed;
  if (values['require-token'] !== undefined && values.http === undefined) {
    return { ok: false, message: '--require-token needs --http' };
  }
  if (values['streams-file'] !== undefined && values.http === undefined) {
    return { ok: false, message: '--streams-file needs --http' };
  }
  return {
    ok: true,
    options: {
      ...(port.ok && port.value !== undefined ? { httpPort: port.value } : {}),
      ...(values.tools === undefined ? {} : { toolsFile: values.tools }),
      demo: values.demo === true || values.tools === undefined,
      startDelayMs: (delay.ok ? delay.value : undefined) ?? 0,
      ...(values['require-token'] === undefined ? {} : { requireToken: values['require-token'] }),
      ...(values['count-file'] === undefined ? {} : { countFile: values['count-file'] }),
      ...(values['streams-file'] === undefined ? {} : { streamsFile: values['streams-file'] }),
      ...(values['pid-file'] === undefined ? {} : { pidFile: values['pid-file'] }),
      pageSize: (pageSize.ok ? pageSize.value : undefined) ?? 0,
      name: values.name ?? 'mcp-fixture',
      ...(values.overload === undefined ? {} : { overloadFile: values.overload }),
      ...(values['events-file'] === undefined ? {} : { eventsFile: values['events-file'] }),
    },
  };
}

function optionalInteger(
  raw: string | undefined,
  flag: string,
  min: number,
  max: number,
): { ok: true; value: number | undefined } | { ok: false; message: string } {
  if (raw === undefined) return { ok: true, value: undefined };
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    return { ok: false, message: `${flag} must be an integer from ${min} to ${max}, got ${raw}` };
  }
  return { ok: true, value };
}
