import { Agent, request } from 'node:http';

// A 2026-07-28 tools/list as one stateless POST: both the gateway and the SDK-built fixture answer it
// with a single JSON body, which is read whole and not parsed (the server's own cost is measured).
const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/list',
  params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
});

export interface RawTarget {
  readonly url: URL;
  readonly agent: Agent;
}

export function rawTarget(url: string): RawTarget {
  return { url: new URL(url), agent: new Agent({ keepAlive: true, maxSockets: 1 }) };
}

/** A JSON-RPC POST other than the default one: its body and its protocol headers (e.g. a 2025-11-25 session's). */
export interface RawPost {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

const DEFAULT_POST: RawPost = { body: BODY, headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' } };

/** One POST (by default the stateless 2026-07-28 tools/list); resolves with the elapsed milliseconds and the body size. */
export function rawToolsList(target: RawTarget, post: RawPost = DEFAULT_POST): Promise<{ ms: number; bytes: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      target.url,
      {
        method: 'POST',
        agent: target.agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...post.headers,
          'content-length': Buffer.byteLength(post.body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          const body = Buffer.concat(chunks);
          if (res.statusCode !== 200) reject(new Error(`${target.url.href}: HTTP ${res.statusCode}: ${body.toString().slice(0, 300)}`));
          else resolve({ ms, bytes: body.length, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(post.body);
  });
}

/** Counts the tools of a response once (outside the timed loop), to check both sides list what they should. */
export function countTools(body: Buffer): number {
  const text = body.toString('utf8');
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
  const parsed = JSON.parse(json) as { result?: { tools?: unknown[] } };
  return parsed.result?.tools?.length ?? -1;
}
