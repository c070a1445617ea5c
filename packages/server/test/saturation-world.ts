// One HTTP fixture upstream `busy` (tool `work`, echo) behind a real in-process gateway whose
// overload windows run on a hand-moved clock, with the fixture's overload switch in reach. Used by
// the gateway's done-when test and the CLI's.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { startHttpFixture, type HttpFixture } from './fixture-process.js';
import { connectClient, startTestGateway, TempDir, toolText, waitForState, type TestGateway } from './gateway-harness.js';
import { ManualClock } from './manual-clock.js';

export interface SaturationWorld {
  readonly gateway: TestGateway;
  readonly clock: ManualClock;
  /** A 2026-07-28 client of the gateway's /mcp (no token: loopback sees every server). */
  readonly client: Client;
  /** Rewrites the fixture's overload switch (fixture-overload.ts) and signals it to re-read it. */
  overload(answer: Readonly<Record<string, unknown>>): void;
  /** The text of one tools/call of busy:work through the gateway. */
  callWork(args?: Record<string, unknown>): Promise<string>;
  saturated(): boolean;
  close(): Promise<void>;
}

export async function startSaturationWorld(config: Record<string, unknown>): Promise<SaturationWorld> {
  const dir = new TempDir();
  const overloadFile = join(dir.path, 'busy.overload.json');
  const clock = new ManualClock();
  let fixture: HttpFixture | undefined;
  let gateway: TestGateway | undefined;
  let client: Client | undefined;
  const close = async () => {
    await client?.close();
    await gateway?.close();
    await fixture?.stop();
    dir.remove();
  };
  try {
    fixture = await startHttpFixture(['--tools', dir.tools('busy', [{ name: 'work', echo: true, annotations: { readOnlyHint: true } }]), '--overload', overloadFile]);
    const running = await startTestGateway(dir, { ...config, servers: [{ name: 'busy', url: fixture.url, quarantined: false }] }, { clock });
    gateway = running;
    await waitForState(running.gateway, (state) => state.snapshot.servers.get('busy')?.connection.state === 'ready');
    const connected = await connectClient(running.url, 'modern');
    client = connected;
    const pid = fixture.process.pid ?? 0;
    return {
      gateway: running,
      clock,
      client: connected,
      overload: (answer) => {
        writeFileSync(overloadFile, JSON.stringify(answer));
        process.kill(pid, 'SIGHUP');
      },
      callWork: async (args = { n: 1 }) => toolText(await connected.callTool({ name: 'busy:work', arguments: args })),
      saturated: () => running.gateway.runtime.current().snapshot.servers.get('busy')?.connection.saturation !== undefined,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
