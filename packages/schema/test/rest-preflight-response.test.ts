// checkRestPreflightResponse: a consumer's reading of a POST /api/v1/preflight 200 body at either
// tier, over the spec's own examples, plus what a newer gateway may add and what no gateway sends.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRestPreflightResponse } from '../src/index.js';
import { EXAMPLES, readJson } from './repo-files.js';

const agent = readJson(join(EXAMPLES, 'RestAgentPreflightResponse/agent-tier.json')) as Record<string, unknown>;
const operator = readJson(join(EXAMPLES, 'RestPreflightResponse/operator-tier.json')) as Record<string, unknown>;

describe('checkRestPreflightResponse', () => {
  it('reads the agent-tier and the operator-tier answer', () => {
    expect(checkRestPreflightResponse(agent)).toEqual({ ok: true, value: agent });
    expect(checkRestPreflightResponse(operator)).toEqual({ ok: true, value: operator });
  });

  it('reads leniently: a reason code a newer gateway adds is accepted, an unknown top-level field is not', () => {
    const newer = { ...agent, tools: [{ id: 'a:b', status: 'unavailable', reason: 'brand_new_code', retryable: true, action: 'wait' }] };
    expect(checkRestPreflightResponse(newer)).toEqual({ ok: true, value: newer });
    const extra = checkRestPreflightResponse({ ...agent, served_by: 'gw-2' });
    expect(extra.ok ? [] : extra.issues).toContainEqual(expect.objectContaining({ path: '/served_by' }));
  });

  it('refuses a body without tools, naming where', () => {
    const { tools: _tools, ...noTools } = agent;
    const result = checkRestPreflightResponse(noTools);
    expect(result.ok ? [] : result.issues).toContainEqual(expect.objectContaining({ path: '/tools', rule: 'required' }));
    expect(checkRestPreflightResponse('ready').ok).toBe(false);
  });
});
