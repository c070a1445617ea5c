// The pure parts: capabilities merging, the consumer treatment of codes, the set verdict.
import { REASON_CODES, REASONS, SETTINGS_VERSION, VERDICTS, type Verdict } from '@mcpproxy/schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mirrorFor, negotiableVersion, type ExtensionSupport } from '../src/extension-support.js';
import { requiredToolsCapabilities } from '../src/index.js';
import { setVerdict, treatTool } from '../src/tool-treatment.js';

describe('requiredToolsCapabilities', () => {
  it('mirrors the extension in experimental and extensions, keeping the harness capabilities', () => {
    expect(requiredToolsCapabilities({ roots: { listChanged: true }, experimental: { other: { a: 1 } }, extensions: { 'x/y': {} } })).toEqual({
      roots: { listChanged: true },
      experimental: { other: { a: 1 }, 'app.mcpproxy/required-tools': { version: SETTINGS_VERSION } },
      extensions: { 'x/y': {}, 'app.mcpproxy/required-tools': { version: SETTINGS_VERSION } },
    });
  });
});

describe('settings versions', () => {
  const support = (version: unknown): ExtensionSupport => ({ era: 'modern', advertised: true, mirrored: true, ...(version === undefined ? {} : { version }) });
  it('negotiates with any settings version and mirrors the lower of the two (a server answers its own or an earlier one)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -3, max: SETTINGS_VERSION + 5 }), fc.constant(undefined), fc.constant(1.5), fc.constant('2')), (version) => {
        const settings = typeof version === 'number' && Number.isInteger(version) && version >= 1;
        expect(negotiableVersion(support(version))).toBe(settings || version === undefined);
        expect(mirrorFor(support(version))).toEqual({ version: settings ? Math.min(version, SETTINGS_VERSION) : SETTINGS_VERSION });
      }),
    );
  });
});

describe('treatment of per-tool results', () => {
  // Inherited names (`constructor`, `__proto__`) are unknown codes like any other.
  const code = fc.oneof(fc.constantFrom(...REASON_CODES), fc.stringMatching(/^[a-z][a-z_]{2,20}$/), fc.constantFrom('constructor', '__proto__', 'toString'));
  it('known codes take the registry; unknown codes are permanent, non-retryable, blocked, whatever the wire says', () => {
    fc.assert(
      fc.property(code, fc.boolean(), (reason, wireRetryable) => {
        const tool = treatTool({ id: 's:t', status: 'unavailable', reason, retryable: wireRetryable });
        if (tool.status !== 'unavailable') return false;
        const entry = Object.hasOwn(REASONS, reason) ? (REASONS as Record<string, { retryable: boolean; class: string }>)[reason] : undefined;
        if (entry === undefined) return !tool.known && !tool.retryable && tool.class === 'permanent' && setVerdict('ready', [tool]) === 'blocked';
        return tool.known && tool.retryable === entry.retryable && tool.class === entry.class;
      }),
    );
  });

  // A tool below blocked is one whose code the registry calls retryable (read from it, not listed here).
  const retryableCode = (reason: string | undefined): boolean =>
    reason !== undefined && Object.hasOwn(REASONS, reason) && (REASONS as Record<string, { retryable: boolean }>)[reason]!.retryable;

  it('the set verdict is never better than the answer or any tool, and an unknown answer verdict is blocked at best', () => {
    fc.assert(
      fc.property(fc.constantFrom<Verdict | 'bogus'>(...VERDICTS, 'bogus'), fc.array(fc.option(code, { nil: undefined }), { maxLength: 6 }), (answered, reasons) => {
        const tools = reasons.map((reason, i) => treatTool(reason === undefined ? { id: `s:${i}`, status: 'ready' } : { id: `s:${i}`, status: 'unavailable', reason, retryable: false }));
        const verdict = setVerdict(answered, tools);
        const rank = (v: Verdict) => VERDICTS.indexOf(v);
        return rank(verdict) >= (answered === 'bogus' ? rank('blocked') : rank(answered)) && tools.every((t) => t.status === 'ready' || rank(verdict) >= rank('blocked') || retryableCode(t.reason));
      }),
    );
  });
});
