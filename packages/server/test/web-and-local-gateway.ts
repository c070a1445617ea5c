// A gateway with the fixture upstream twice, over HTTP ('web') and over stdio ('local'), from the same
// tools file, each recording what it saw in <dir>/<name>.events: the two transports side by side.
import { join } from 'node:path';
import { startHttpFixture, type HttpFixture } from './fixture-process.js';
import { fixtureServer, serverReady, startTestGateway, waitForState, type TempDir, type TestGateway } from './gateway-harness.js';
import { readJsonLines } from './json-lines-file.js';

export interface WebAndLocal {
  readonly gw: TestGateway;
  /** What the fixture named `web` or `local` recorded so far. */
  events<T>(server: 'web' | 'local'): T[];
  close(): Promise<void>;
}

export async function startWebAndLocal(dir: TempDir, toolsFile: string): Promise<WebAndLocal> {
  const web: HttpFixture = await startHttpFixture(['--tools', toolsFile, '--events-file', join(dir.path, 'web.events')]);
  const local = fixtureServer('local', toolsFile);
  const gw = await startTestGateway(dir, {
    tool_quarantine: false,
    servers: [{ name: 'web', url: web.url, quarantined: false }, { ...local, args: [...(local['args'] as string[]), '--events-file', join(dir.path, 'local.events')] }],
  });
  await waitForState(gw.gateway, (state) => serverReady('web')(state) && serverReady('local')(state), 30_000);
  return {
    gw,
    events: <T>(server: 'web' | 'local') => readJsonLines<T>(join(dir.path, `${server}.events`)),
    close: async () => {
      await gw.close();
      await web.stop();
    },
  };
}
