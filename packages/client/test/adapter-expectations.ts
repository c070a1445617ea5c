// What every runtime adapter must show, whatever the runtime: its README example printed verbatim,
// a ready run that reaches the model and a gateway tool, a blocked run stopped before the model with
// each tool's reason and remediation, and no in-band carriage on a server without the extension.
// The error classes come from the built package, the same module every subpath re-exports.
import { readFileSync } from 'node:fs';
import { PreflightError, RequiredToolsUnavailableError, type Carriage } from '@mcpproxy/client';
import { expect } from 'vitest';

/** The example file is one of the client README's js blocks, byte for byte. */
export function expectInReadme(example: string): void {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  expect([...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((block) => block[1])).toContain(readFileSync(example, 'utf8'));
}

/** The run reached the model twice (the tool call, then the answer), was offered `offered`, and the answer quotes what the tool returned. */
export function expectRanThroughTool(output: unknown, calls: readonly (readonly string[])[], offered: readonly string[], toolSaid: string): void {
  expect(calls).toHaveLength(2);
  expect(calls[0]).toEqual(expect.arrayContaining([...offered]));
  expect(output).toEqual(expect.stringContaining(toolSaid));
}

/**
 * The gated run of BLOCKED_IDS rejected with RequiredToolsUnavailableError, through `carriage`,
 * naming each unavailable tool with its reason and remediation, and the model was never called.
 */
export async function expectStoppedBeforeModel(run: Promise<unknown>, carriage: Carriage, calls: readonly unknown[]): Promise<void> {
  const error = await run.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(RequiredToolsUnavailableError);
  const blocked = error as RequiredToolsUnavailableError;
  expect([blocked.code, blocked.verdict, blocked.carriage]).toEqual(['tools_unavailable', 'unknown_ids', carriage]);
  expect(blocked.unavailable).toMatchObject([
    { id: 'off:echo', reason: 'server_disabled', retryable: false, action: 'enable', remediation: 'Enable it: mcpproxy servers enable off' },
    { id: 'demo:ech', reason: 'not_found', retryable: false, did_you_mean: ['demo:echo'], remediation: expect.stringMatching(/\S/) },
  ]);
  for (const tool of blocked.unavailable) expect(blocked.message).toContain(`${tool.id} (${tool.reason}: ${tool.detail} remediation: ${tool.remediation})`);
  expect(calls).toEqual([]);
}

/** A server that did not advertise the extension, and no REST: no carriage was tried, the run never reached the model. */
export async function expectNoCarriage(run: Promise<unknown>, calls: readonly unknown[]): Promise<void> {
  const error = await run.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PreflightError);
  expect((error as PreflightError).code).toBe('no_carriage');
  expect((error as PreflightError).attempts).toEqual([
    { carriage: 'rider', outcome: 'skipped', reason: 'the server did not advertise app.mcpproxy/required-tools' },
    { carriage: 'check', outcome: 'skipped', reason: 'the server did not advertise app.mcpproxy/required-tools' },
    { carriage: 'rest', outcome: 'skipped', reason: 'no REST url given (options.rest)' },
  ]);
  expect(calls).toEqual([]);
}
