import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One built file of the operator UI, held in memory (the whole UI is some tens of kilobytes). */
export interface UiAsset {
  readonly type: string;
  readonly body: Buffer;
  /** Vite names what it builds under assets/ after its content hash: cacheable for good. */
  readonly immutable: boolean;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** dist/ui of this package (the UI build copied in by the package's build), from src or dist alike. */
export function uiAssetDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return join(dir, 'dist', 'ui');
}

/**
 * Every file of the built UI by its URL path below /ui/ ("index.html", "assets/index-3f2a.js"), read
 * once. Only these paths are ever served, so no request path can reach another file. Undefined when
 * the UI is not built (a package built without it).
 */
export function loadUiAssets(dir: string = uiAssetDir()): ReadonlyMap<string, UiAsset> | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const assets = new Map<string, UiAsset>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const path = relative(dir, file).split(sep).join('/');
    const type = TYPES[extname(entry.name).toLowerCase()];
    if (type === undefined) continue;
    assets.set(path, { type, body: readFileSync(file), immutable: path.startsWith('assets/') });
  }
  return assets;
}
