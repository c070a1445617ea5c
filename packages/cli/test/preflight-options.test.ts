// Local checks of `tools preflight` flags: durations, pins, and the exit code as the worse of the
// gateway's verdict and the recomputed one (properties over generated answers).
import { REASON_CODES, REASONS, VERDICT_EXIT_CODES, VERDICTS, type Verdict } from '@mcpproxy/schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/cli-error.js';
import { toolRefsWithPins } from '../src/preflight/pin-options.js';
import { preflightReport, summaryLine, type ReportTool } from '../src/preflight/preflight-report.js';
import { parseWaitDuration } from '../src/preflight/wait-duration.js';

const usage = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof CliError && error.code === 'usage';
  }
  return false;
};

describe('--wait DURATION', () => {
  it.each([['0', 0], ['0s', 0], ['250ms', 250], ['1.5s', 1500], ['10s', 10_000], ['1s500ms', 1500], ['.5s', 500], [' 2s ', 2000]])('%s = %i ms', (text, ms) => {
    expect(parseWaitDuration(text)).toBe(ms);
  });
  it.each([['10.001s'], ['11s'], ['10'], ['5m'], ['-1s'], ['s'], ['1 s'], ['']])('%j is a usage error', (text) => {
    expect(usage(() => parseWaitDuration(text))).toBe(true);
  });
  it('every whole number of ms from 0 to 10000 round-trips', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000 }), (ms) => parseWaitDuration(`${ms}ms`) === ms && parseWaitDuration(`${ms / 1000}s`) === ms));
  });
});

describe('--pin', () => {
  const hash = (digit: string) => `sha256/v1:${digit.repeat(64)}`;
  it('attaches a pin to every occurrence of its trimmed id, keeps order and spelling', () => {
    expect(toolRefsWithPins([' a:b', 'c:d', 'a:b'], [`a:b=${hash('1')}`])).toEqual([
      { id: ' a:b', pin_hash: hash('1') },
      { id: 'c:d' },
      { id: 'a:b', pin_hash: hash('1') },
    ]);
  });
  it("matches ids by the gateway's key (both halves trimmed), so every spelling of one tool gets its pin", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^ {0,2}$/), fc.stringMatching(/^ {0,2}$/), fc.stringMatching(/^ {0,2}$/), (a, b, c) => {
        const spelled = `${a}s${b}:${c}t`;
        expect(toolRefsWithPins(['s:t', spelled], [`${c}s ${b}:t${a}=${hash('1')}`])).toEqual([
          { id: 's:t', pin_hash: hash('1') },
          { id: spelled, pin_hash: hash('1') },
        ]);
      }),
    );
  });
  it('any pin for an id that was not requested is an error', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,4}:[a-z]{1,4}$/), { minLength: 1, maxLength: 5 }), fc.stringMatching(/^[a-z]{1,4}:[a-z]{1,4}$/), (ids, other) => {
        fc.pre(!ids.includes(other));
        return usage(() => toolRefsWithPins(ids as [string, ...string[]], [`${other}=${hash('a')}`]));
      }),
    );
  });
  it('two different pins for one id conflict; a malformed hash is refused before sending', () => {
    expect(usage(() => toolRefsWithPins(['a:b'], [`a:b=${hash('1')}`, ` a:b =${hash('2')}`]))).toBe(true);
    expect(usage(() => toolRefsWithPins(['a:b'], ['a:b=sha256/v1:ABC']))).toBe(true);
    expect(usage(() => toolRefsWithPins(['a:b'], [`=${hash('1')}`]))).toBe(true);
  });
});

describe('the exit code', () => {
  const tool = (code: string | undefined, i: number): ReportTool => (code === undefined ? { id: `s:${i}`, status: 'ready' } : { id: `s:${i}`, status: 'unavailable', reason: code, retryable: false });
  const answer = (verdict: Verdict, tools: ReportTool[]) => ({ verdict, checked_at: 'now', request_id: 'r', tools });

  it('is the worse of the gateway verdict and the per-tool verdicts; unknown codes count as blocked', () => {
    // Inherited names (`__proto__`, `constructor`) are unknown codes like any other.
    const unknown = fc.oneof(fc.stringMatching(/^[a-z_]{3,12}$/), fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty'));
    const codes = fc.option(fc.oneof(fc.constantFrom(...REASON_CODES), unknown), { nil: undefined });
    fc.assert(
      fc.property(fc.constantFrom(...VERDICTS), fc.array(codes, { minLength: 1, maxLength: 8 }), (server, reasons) => {
        const tools = reasons.map(tool);
        const report = preflightReport(answer(server, tools), 'rest', tools.map((t) => t.id));
        const perTool = reasons.map((code) => (code === undefined ? 'ready' : Object.hasOwn(REASONS, code) ? REASONS[code as keyof typeof REASONS].verdict : 'blocked'));
        const expected = [server, ...perTool].reduce((a, b) => (VERDICTS.indexOf(a) >= VERDICTS.indexOf(b) ? a : b));
        return report.verdict === expected && report.exit_code === VERDICT_EXIT_CODES[expected];
      }),
    );
  });

  it('a gateway that says ready next to an unavailable tool cannot pass a CI job', () => {
    expect(preflightReport(answer('ready', [tool('server_disabled', 0)]), 'rest', ['s:0']).exit_code).toBe(11);
    expect(preflightReport(answer('ready', [tool('brand_new_code', 0)]), 'rest', ['s:0']).exit_code).toBe(11);
  });

  it('nor can one that leaves a requested tool out (ids compared by the dedup key)', () => {
    const ready = answer('ready', [tool(undefined, 0), tool(undefined, 1)]);
    expect(preflightReport(ready, 'rest', [' s : 0', 's:1', 's:0']).exit_code).toBe(0);
    expect(() => preflightReport(ready, 'rest', ['s:0', 's:1', 's:2'])).toThrow('no result for "s:2"');
    expect(() => preflightReport(answer('ready', []), 'rest', ['s:0'])).toThrow(CliError);
  });

  it('an unknown set verdict is an invalid answer, not a guess', () => {
    expect(() => preflightReport({ verdict: 'fine', checked_at: 'now', request_id: 'r', tools: [] }, 'rest', [])).toThrow(CliError);
  });

  it('summary lines', () => {
    expect(summaryLine([tool('server_disabled', 0), tool(undefined, 1), tool('not_found', 2), tool('server_disabled', 3), tool(undefined, 4)])).toBe('3 of 5 tools unavailable: server_disabled, not_found');
    expect(summaryLine([tool(undefined, 0)])).toBe('1 of 1 tool ready');
  });
});
