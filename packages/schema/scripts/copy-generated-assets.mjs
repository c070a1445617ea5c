// tsc compiles src/**/*.ts only; the precompiled validators (.js + .d.ts) and the resolved
// schemas (.json) are shipped as generated, so build copies them next to the compiled code.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, 'src', 'generated');
const to = join(root, 'dist', 'generated');
mkdirSync(to, { recursive: true });
for (const name of readdirSync(from)) {
  if (name.endsWith('.js') || name.endsWith('.d.ts') || name.endsWith('.json')) copyFileSync(join(from, name), join(to, name));
}
