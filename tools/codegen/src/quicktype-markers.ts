// Marker strings that carry TypeScript text (a $ref's type name, a const's literal, a registry
// type) through quicktype unchanged: quicktype prints a one-value string enum verbatim.

const PREFIX = '__TS_';
const SUFFIX = '__';

export function tsMarker(typeText: string): string {
  return `${PREFIX}${Buffer.from(typeText, 'utf8').toString('hex')}${SUFFIX}`;
}

/** A one-value string enum quicktype will print as the marker literal. */
export function markerSchema(typeText: string): { type: 'string'; enum: [string] } {
  return { type: 'string', enum: [tsMarker(typeText)] };
}

/** Replaces every quoted marker in quicktype's output with the TypeScript it stands for. */
export function replaceMarkers(source: string): string {
  return source.replace(/"__TS_([0-9a-f]+)__"/g, (_m, hex: string) => Buffer.from(hex, 'hex').toString('utf8'));
}
