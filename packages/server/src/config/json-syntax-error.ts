/** Where a JSON text first breaks the grammar, 1-based line and column (in UTF-16 units). */
export interface JsonSyntaxError {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  readonly message: string;
  /** The JSON pointer of a duplicate key (with duplicateKeys). */
  readonly pointer?: string;
}

/**
 * Finds the first syntax error of a JSON text (RFC 8259), or undefined when it is valid.
 * JSON.parse on Node 20 says what is wrong but not where; a config error must name the line
 * and column, so this walks the grammar once more to find the spot.
 */
export function findJsonSyntaxError(text: string, options: JsonScanOptions = {}): JsonSyntaxError | undefined {
  const scanner = new Scanner(text, options.duplicateKeys === true);
  try {
    scanner.skipSpace();
    scanner.value();
    scanner.skipSpace();
    if (scanner.pos < text.length) scanner.fail('unexpected content after the JSON value');
    return undefined;
  } catch (error) {
    if (!(error instanceof ScanFailure)) throw error;
    return { ...lineAndColumn(text, error.offset), offset: error.offset, message: error.message, ...(error.pointer === undefined ? {} : { pointer: error.pointer }) };
  }
}

export interface JsonScanOptions {
  /**
   * Also fail on an object that has a key twice: valid JSON, but JSON.parse keeps the last one
   * silently, so a second "servers" would replace the first without a word.
   */
  readonly duplicateKeys?: boolean;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i += 1) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class ScanFailure extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly pointer?: string,
  ) {
    super(message);
  }
}

class Scanner {
  pos = 0;
  /** The JSON pointer segments of the value being read (kept only when checking duplicate keys). */
  private readonly path: string[] = [];

  constructor(
    private readonly text: string,
    private readonly duplicateKeys = false,
  ) {}

  fail(message: string, at = this.pos): never {
    throw new ScanFailure(message, at);
  }

  skipSpace(): void {
    while (this.pos < this.text.length && ' \t\n\r'.includes(this.text[this.pos] ?? '')) this.pos += 1;
  }

  value(): void {
    const c = this.text[this.pos];
    if (c === undefined) this.fail('unexpected end of input: a value was expected');
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return;
      }
    }
    this.fail(`unexpected ${describe(c)}: a value was expected`);
  }

  private object(): void {
    const seen = new Map<string, number>();
    this.members('}', () => {
      if (this.text[this.pos] !== '"') this.fail(`unexpected ${this.here()}: a property name in double quotes was expected`);
      const start = this.pos;
      this.string();
      const key = this.duplicateKeys ? (JSON.parse(this.text.slice(start, this.pos)) as string) : '';
      if (this.duplicateKeys) {
        const first = seen.get(key);
        if (first !== undefined) {
          const at = lineAndColumn(this.text, first);
          const message = `duplicate key ${JSON.stringify(key)} (first at line ${at.line}, column ${at.column}): JSON would keep only the last one`;
          throw new ScanFailure(message, start, pointerOf([...this.path, key]));
        }
        seen.set(key, start);
      }
      this.skipSpace();
      if (this.text[this.pos] !== ':') this.fail(`unexpected ${this.here()}: ':' was expected`);
      this.pos += 1;
      this.skipSpace();
      this.path.push(key);
      this.value();
      this.path.pop();
    });
  }

  private array(): void {
    let index = 0;
    this.members(']', () => {
      this.path.push(String(index++));
      this.value();
      this.path.pop();
    });
  }


  /** The comma-separated members of an object or array, after its opening bracket. */
  private members(close: '}' | ']', member: () => void): void {
    this.pos += 1;
    this.skipSpace();
    if (this.text[this.pos] === close) {
      this.pos += 1;
      return;
    }
    for (;;) {
      this.skipSpace();
      member();
      this.skipSpace();
      const next = this.text[this.pos];
      if (next === ',') {
        this.pos += 1;
        continue;
      }
      if (next === close) {
        this.pos += 1;
        return;
      }
      this.fail(`unexpected ${this.here()}: ',' or '${close}' was expected`);
    }
  }

  private string(): void {
    const start = this.pos;
    this.pos += 1;
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined) this.fail('unterminated string', start);
      if (c === '"') {
        this.pos += 1;
        return;
      }
      if (c.charCodeAt(0) < 0x20) this.fail('control character in a string (escape it)');
      if (c === '\\') {
        const e = this.text[this.pos + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) this.fail('bad \\u escape: four hex digits were expected');
          this.pos += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) this.fail('bad escape in a string');
        this.pos += 2;
        continue;
      }
      this.pos += 1;
    }
  }

  private number(): void {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.pos));
    if (match === null || match[0] === '-') this.fail('bad number');
    this.pos += match[0].length;
  }

  private here(): string {
    const c = this.text[this.pos];
    return c === undefined ? 'end of input' : describe(c);
  }
}

function pointerOf(segments: readonly string[]): string {
  return segments.map((segment) => `/${segment.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

function describe(c: string): string {
  return c === '\n' ? 'line break' : `'${c}'`;
}
