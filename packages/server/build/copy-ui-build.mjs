// The server's build ships the operator UI: @mcpproxy/ui's Vite build (packages/ui/dist, built first
// by nx: the server names the UI as an implicit dependency) is copied to dist/ui, which the gateway
// serves at /ui. A missing UI build fails the server build, so a package without its UI is never made.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const from = fileURLToPath(new URL('../../ui/dist/', import.meta.url));
const to = fileURLToPath(new URL('../dist/ui/', import.meta.url));
if (!existsSync(new URL('index.html', `file://${from}`))) {
  console.error(`copy-ui-build: ${from}index.html is missing: build the UI first (pnpm nx run @mcpproxy/server:build builds it)`);
  process.exit(1);
}
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
