// The pieces the commands print with: YAML (parsed back by a real YAML parser), aligned tables,
// colour only on a terminal without NO_COLOR, the --wait progress line only on a terminal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startProgress } from '../src/preflight/progress-indicator.js';
import { terminalStyle } from '../src/output/terminal-style.js';
import { textTable } from '../src/output/text-table.js';
import { yamlText } from '../src/output/yaml-text.js';

const json = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown);

describe('yamlText', () => {
  it('any JSON value parses back to itself (YAML 1.2 core schema)', () => {
    fc.assert(fc.property(json, (value) => {
      expect(parseYaml(yamlText(value))).toEqual(value);
    }), { numRuns: 500 });
  });

  it('keys that YAML 1.1 reads as booleans stay quoted; strings are always quoted', () => {
    expect(yamlText({ no: 'yes', id: 'x', 'a b': 1, list: [{ k: true }, []], empty: {} })).toBe(
      '"no": "yes"\nid: "x"\n"a b": 1\nlist:\n  - k: true\n  - []\nempty: {}\n',
    );
  });
});

describe('textTable', () => {
  it('shows what a gateway or an upstream sent literally: no control character reaches the terminal', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ unit: 'binary', maxLength: 12 }), { minLength: 2, maxLength: 2 }), { maxLength: 4 }), (rows) => {
        const lines = textTable(['A', 'B'], rows);
        expect(lines).toHaveLength(rows.length + 1);
        // eslint-disable-next-line no-control-regex -- looking for control characters
        for (const line of lines) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      }),
    );
    expect(textTable(['NAME'], [['evil\u001b]52;c;aGk=\u0007name']])).toEqual(['NAME', 'evil\\x1b]52;c;aGk=\\x07name']);
  });

  it('aligns columns by the widest cell and never pads the last one', () => {
    expect(textTable(['ID', 'STATUS', 'DETAIL'], [['a:bb', 'ready', '-'], ['c', 'unavailable', 'x\ny']])).toEqual([
      'ID    STATUS       DETAIL',
      'a:bb  ready        -',
      'c     unavailable  x y',
    ]);
  });
});

describe('terminalStyle', () => {
  const tty = { write: () => true, isTTY: true };
  it('colours only a terminal, and never with NO_COLOR or TERM=dumb', () => {
    expect(terminalStyle(tty, {}).verdict('V', 'blocked')).toBe('\u001b[31mV\u001b[0m');
    expect(terminalStyle(tty, { NO_COLOR: '1' }).verdict('V', 'blocked')).toBe('V');
    expect(terminalStyle(tty, { TERM: 'dumb' }).verdict('V', 'ready')).toBe('V');
    expect(terminalStyle({ write: () => true }, {}).verdict('V', 'ready')).toBe('V');
  });
});

describe('the --wait progress indicator', () => {
  it('draws on a terminal and erases its line when stopped; nothing on a pipe or without a budget', async () => {
    const written: string[] = [];
    // Redrawn by its timer: wait for the third frame (an event, however slow the machine), then stop.
    let thirdFrame: () => void = () => undefined;
    const drawnThrice = new Promise<void>((resolve) => (thirdFrame = resolve));
    const progress = startProgress({ write: (text: string) => (written.push(text) === 3 ? thirdFrame() : undefined), isTTY: true }, 'waiting for demo:echo', 2000);
    await drawnThrice;
    progress.stop();
    expect(written[0]).toMatch(/^\r[|/\\-] waiting for demo:echo \d+\.\ds \/ 2\.0s$/);
    expect(written.slice(0, 3).map((line) => line[1])).toEqual(['|', '/', '-']);
    expect(written).toHaveLength(4);
    expect(written.at(-1)).toBe('\r\u001b[2K');
    const piped: string[] = [];
    startProgress({ write: (text: string) => piped.push(text) }, 'x', 2000).stop();
    startProgress({ write: (text: string) => piped.push(text), isTTY: true }, 'x', 0).stop();
    expect(piped).toEqual([]);
  });
});
