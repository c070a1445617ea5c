// POST /api/v1/oauth/callback takes input from anyone (it needs no credential): whatever body or state
// arrives, the answer is a 400 that names what is wrong, nothing reaches the authorization server, and
// the login that is really pending is untouched and still finishes (fast-check over bodies and states).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthWorld } from './oauth-world/oauth-world.js';

let world: OAuthWorld;
beforeAll(async () => {
  world = await OAuthWorld.start();
  await world.startGateway();
  await world.waitForWeb('pending_auth');
});
afterAll(async () => {
  await world?.close();
});

describe('the public OAuth callback and its input', () => {
  it('any body, any state: 400 invalid_body or invalid_state, no exchange; the pending login still works', async () => {
    const { query } = await world.authorize();
    const realState = query.get('state')!;
    const redirectField = fc.oneof(fc.string(), fc.jsonValue());
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ state: fc.string().filter((state) => state !== realState), code: fc.string() }, { requiredKeys: ['state'] }),
      fc.record({ state: redirectField, code: redirectField, iss: redirectField, error: redirectField, extra: redirectField }, { requiredKeys: [] }),
    );
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const answer = await world.rest('POST', '/oauth/callback', value, {});
        expect([400]).toContain(answer.status);
        expect(['invalid_body', 'invalid_state', 'invalid_json']).toContain(answer.body['code']);
        expect(typeof answer.body['message']).toBe('string');
      }),
      { numRuns: 60 },
    );
    expect(world.as.grants.authorization_code).toBe(0);

    const finished = await world.callback(query);
    expect([finished.status, finished.body]).toEqual([200, { server: 'web' }]);
    await world.waitForWeb('ready');
  });
});
