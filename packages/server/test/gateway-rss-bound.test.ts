// The gateway process's resident memory with 10,000 tools (10 stdio fixture upstreams x 1,000, the
// benchmark's catalogue), read from /proc once the first full listing has been answered. The bound
// sits between what the process takes with V8's default heap sizing (~194-199 MiB) and with the
// small-heap policy the start command applies (~136-149 MiB): it fails if the policy stops being
// applied, or if something new keeps ~25 MiB more alive. RSS does not depend on the machine's load.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChildHandle } from '../bench/child-process-handle.js';
import { countTools, rawTarget, rawToolsList } from '../bench/raw-tools-list.js';
import { catalogue } from '../bench/tool-catalogue.js';
import { FIXTURE_MAIN, SERVE_MAIN, TempDir } from './gateway-harness.js';

const UPSTREAMS = 10;
const PER_UPSTREAM = 1_000;
const RSS_BOUND_MIB = 175;

describe('gateway resident memory', () => {
  let dir: TempDir;
  let gateway: ChildHandle | undefined;
  beforeAll(() => {
    dir = new TempDir();
  });
  afterAll(async () => {
    await gateway?.stop();
    dir.remove();
  });

  it(`stays under ${RSS_BOUND_MIB} MiB with 10,000 tools once the first full listing is answered`, { timeout: 240_000 }, async () => {
    const servers = Array.from({ length: UPSTREAMS }, (_, i) => ({
      name: `up${i}`,
      command: process.execPath,
      args: [FIXTURE_MAIN, '--tools', dir.file(`up${i}.tools.json`, JSON.stringify(catalogue(`t${i}`, PER_UPSTREAM))), '--name', `up${i}`],
      quarantined: false,
    }));
    const config = dir.file(
      'gateway.json',
      JSON.stringify({ listen: '127.0.0.1:0', data_dir: join(dir.path, 'data'), api_key: 'rss-test-admin-key-0123456789', tool_quarantine: false, page_size: 10_000, servers }),
    );
    gateway = new ChildHandle(process.execPath, [SERVE_MAIN, '--config', config]);
    const url = (await gateway.waitFor(/serving MCP at (\S+)/, 120_000))[1]!;
    const target = rawTarget(url);
    try {
      // Listed the way the benchmark does: ask until the whole catalogue is served (each upstream's
      // listing arrives in its own time), so start-up and the first full listing are both behind us.
      let served = 0;
      while (served < UPSTREAMS * PER_UPSTREAM) {
        served = countTools((await rawToolsList(target)).body);
        if (served < UPSTREAMS * PER_UPSTREAM) await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      target.agent.destroy();
    }
    const status = readFileSync(`/proc/${gateway.process.pid}/status`, 'utf8');
    const rssMiB = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)![1]) / 1024;
    expect(rssMiB, `VmRSS ${rssMiB.toFixed(1)} MiB`).toBeLessThan(RSS_BOUND_MIB);
  });
});
