import { EXTENSION_ID, SETTINGS_VERSION } from '@mcpproxy/schema';
import type { CarriageAnswer } from './carriage-answer.js';
import type { CarriageClient } from './carriage-client.js';
import { checkModePreflight } from './check-mode-carriage.js';
import { negotiableVersion } from './extension-support.js';
import { describeAttempts, PreflightError } from './preflight-error.js';
import type { Carriage, CarriageAttempt, PreflightOptions, PreflightResult } from './preflight-result.js';
import { restPreflight } from './rest-carriage.js';
import { riderPreflight } from './rider-carriage.js';
import { setVerdict, treatTool } from './tool-treatment.js';

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Asks whether the required tools can be used right now, by the first carriage that can answer:
 *
 * 1. the rider on tools/list, when the server advertised the extension (or the runtime's client
 *    cannot tell: a rider is only a listing, which a server that does not know it ignores) and the
 *    session can mirror it;
 * 2. describe_tool check mode, when the rider gave no facet, but only on a server known to have
 *    advertised the extension (an unknown server's tools are never called);
 * 3. REST (`options.rest`), when given.
 *
 * Answers are read with the lenient validators (unknown reason codes: permanent, non-retryable,
 * blocked). When no carriage answers, a PreflightError with code `no_carriage` lists each one and why.
 */
export async function preflightThrough(client: CarriageClient, ids: readonly string[], options: PreflightOptions = {}): Promise<PreflightResult> {
  if (ids.length === 0) throw new PreflightError('invalid_request', 'preflight needs at least one tool id');
  const request = { timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, ...(options.signal === undefined ? {} : { signal: options.signal }) };
  const advertisement = client.advertisement;
  const attempts: CarriageAttempt[] = [];

  const answered = (carriage: Carriage, outcome: CarriageAnswer): PreflightResult | undefined => {
    if (!outcome.ok) {
      attempts.push({ carriage, outcome: 'failed', reason: outcome.reason });
      return undefined;
    }
    attempts.push({ carriage, outcome: 'answered', reason: 'answered' });
    const tools = outcome.answer.tools.map(treatTool);
    return { verdict: setVerdict(outcome.answer.verdict, tools), checked_at: outcome.answer.checked_at, request_id: outcome.answer.request_id, tools, carriage, attempts };
  };

  const inBand =
    advertisement.state === 'absent'
      ? `the server did not advertise ${EXTENSION_ID}`
      : advertisement.state === 'advertised' && !negotiableVersion(advertisement)
        ? `the server advertises settings version ${JSON.stringify(advertisement.version)}, which is not a settings version (this client speaks ${SETTINGS_VERSION})`
        : undefined;
  if (inBand !== undefined) {
    attempts.push({ carriage: 'rider', outcome: 'skipped', reason: inBand }, { carriage: 'check', outcome: 'skipped', reason: inBand });
  } else {
    let result: PreflightResult | undefined;
    if (!client.rider.ok) {
      attempts.push({ carriage: 'rider', outcome: 'skipped', reason: client.rider.why });
    } else {
      result = answered('rider', await riderPreflight(client.rider.send, ids, options.policy, request));
      if (result !== undefined) return result;
    }
    if (advertisement.state === 'unknown') {
      attempts.push({ carriage: 'check', outcome: 'skipped', reason: `${advertisement.why}, and check mode calls a tool only on a server known to advertise ${EXTENSION_ID}` });
    } else {
      result = answered('check', await checkModePreflight(client, ids, options.policy, request));
      if (result !== undefined) return result;
    }
  }

  if (options.rest === undefined) {
    attempts.push({ carriage: 'rest', outcome: 'skipped', reason: 'no REST url given (options.rest)' });
  } else {
    const result = answered('rest', await restPreflight(options.rest, ids, options.policy, request));
    if (result !== undefined) return result;
  }
  throw new PreflightError('no_carriage', `no carriage could answer the preflight: ${describeAttempts(attempts)}`, attempts);
}
