/** A compiled endpoint path: literal segments and {param} segments, matched segment by segment. */
export interface PathTemplate {
  match(segments: readonly string[]): Record<string, string> | undefined;
}

export function compilePathTemplate(template: string): PathTemplate {
  const parts = template.split('/').filter((part) => part !== '');
  return {
    match(segments) {
      if (segments.length !== parts.length) return undefined;
      const params: Record<string, string> = {};
      for (const [i, part] of parts.entries()) {
        const segment = segments[i]!;
        const param = /^\{(\w+)\}$/.exec(part)?.[1];
        if (param !== undefined) {
          if (segment === '') return undefined;
          params[param] = segment;
        } else if (part !== segment) return undefined;
      }
      return params;
    },
  };
}

/** The decoded segments of a path below `prefix`, or undefined when one does not decode. */
export function pathSegments(pathname: string, prefix: string): string[] | undefined {
  const rest = pathname.slice(prefix.length);
  const raw = rest.split('/').filter((segment, i, all) => !(segment === '' && (i === 0 || i === all.length - 1)));
  try {
    return raw.map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}
