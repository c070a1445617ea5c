export type ParsedJson = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** A text that must be exactly one JSON value (surrounded by whitespace at most): its value, or what is wrong with it. */
export function parseJsonText(text: string): ParsedJson {
  try {
    // JSON.parse accepts exactly one value surrounded by whitespace: "{} {}" is an error.
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    return { ok: false, message: text.trim() === '' ? 'The body is empty: expected one JSON value' : `The body is not one JSON value: ${detail}` };
  }
}
