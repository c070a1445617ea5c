// The maintainer's steps of MAINTAINERS.md "Add a reason code", one function per step, so the
// test can run the guards between them.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NEW_CODE, newCodeEntry } from '@mcpproxy/codegen/test/registry-edits.js';

// The same new code (and entry) codegen's own guard tests add.
export { NEW_CODE };

interface RegistryFile {
  settings_version: number;
  reasons: Record<string, unknown>;
}

function readRegistry(root: string): RegistryFile {
  return JSON.parse(readFileSync(join(root, 'spec', 'reasons.json'), 'utf8')) as RegistryFile;
}

function writeRegistry(root: string, registry: RegistryFile): void {
  writeFileSync(join(root, 'spec', 'reasons.json'), `${JSON.stringify(registry, null, 2)}\n`);
}

/** Step 1: the new entry, introduced by the next settings version. */
export function addCodeEntry(root: string): number {
  const registry = readRegistry(root);
  const next = registry.settings_version + 1;
  registry.reasons[NEW_CODE] = newCodeEntry(next);
  writeRegistry(root, registry);
  return next;
}

/** Step 2: raise settings_version and freeze the result as spec/released/v<N>.json. */
export function bumpAndFreeze(root: string, version: number): void {
  const registry = readRegistry(root);
  registry.settings_version = version;
  writeRegistry(root, registry);
  copyFileSync(join(root, 'spec', 'reasons.json'), join(root, 'spec', 'released', `v${version}.json`));
}

/** Step 3: the changeset that announces the settings version and names the code. */
export function announce(root: string, version: number): void {
  writeFileSync(
    join(root, '.changeset', `settings-version-${version}.md`),
    `---\n"@mcpproxy/schema": minor\n---\n\nReason registry settings version ${version}: adds ${NEW_CODE} (retryable, degraded_retryable, exit 10) on every surface.\n`,
  );
}
