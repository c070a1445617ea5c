// logLine: whatever a message quotes, the gateway writes it as one line with no control characters,
// and a message that is already one printable line is written as it is.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logLine } from '../src/log-line.js';

const LINE_BREAK_OR_CONTROL = /[\n\r\u0085\u2028\u2029\p{Cc}]/u;

describe('logLine', () => {
  it('leaves no line break or control character, and changes nothing else in a message without them', () => {
    const anyText = fc.string({ unit: fc.oneof(fc.constantFrom('\n', '\r', '\t', '\u001b', '\u0000', '\u007f', '\u0085', '\u2028', ' '), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), maxLength: 40 });
    fc.assert(
      fc.property(anyText, (message) => {
        const line = logLine(message);
        expect(line).not.toMatch(LINE_BREAK_OR_CONTROL);
        expect(logLine(line)).toBe(line);
        if (!LINE_BREAK_OR_CONTROL.test(message)) expect(line).toBe(message);
      }),
      { numRuns: 2000 },
    );
  });

  it('joins a pretty-printed dump into one line and shows an escape sequence escaped', () => {
    expect(logLine('mcp: [\n  {\n    "code": "invalid_union"\n  }\n]')).toBe('mcp: [ { "code": "invalid_union" } ]');
    expect(logLine('mcp: Unexpected token \'g\', "ga\nmcpprox"... is not valid JSON')).toBe('mcp: Unexpected token \'g\', "ga mcpprox"... is not valid JSON');
    expect(logLine('demo: \u001b[31mred\u001b[0m')).toBe('demo: \\x1b[31mred\\x1b[0m');
  });
});
