// A real gateway with one fixture upstream ("up", one echo tool, unquarantined) for the file's tests,
// started before them and stopped after; `count` is the fixture's count of the messages it received.
import { afterAll, beforeAll } from 'vitest';
import { fixtureServer, readCount, serverReady, startTestGateway, TempDir, type TestGateway, waitForState } from './gateway-harness.js';

export interface EchoGateway {
  /** The running gateway (only once the file's tests run). */
  readonly gw: () => TestGateway;
  /** Messages the upstream has received so far. */
  readonly count: () => number;
}

export function echoGatewayForFile(): EchoGateway {
  const dir = new TempDir();
  const countFile = `${dir.path}/up.count`;
  let gw: TestGateway | undefined;
  beforeAll(async () => {
    gw = await startTestGateway(dir, { tool_quarantine: false, servers: [fixtureServer('up', dir.tools('up', [{ name: 'echo', echo: true }]), {}, countFile)] });
    await waitForState(gw.gateway, serverReady('up'));
  });
  afterAll(async () => {
    await gw?.close();
    dir.remove();
  });
  return {
    gw: () => {
      if (gw === undefined) throw new Error('the gateway is not running');
      return gw;
    },
    count: () => readCount(countFile),
  };
}
