import { EXTENSION_ID } from '@mcpproxy/schema';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { faultSentence, type FaultSubject } from './request-fault.js';
import type { InBandFailure } from './in-band-outcome.js';

const NO_VERDICT = 'no verdict was computed';

/**
 * The JSON-RPC error of a refused in-band request: -32602 naming the fault when the request was
 * malformed (nothing was evaluated), -32603 when the state could not give an honest verdict
 * (never a reduced one). `data` lets a client branch without parsing the message.
 */
export function inBandError(failure: InBandFailure, subject: Exclude<FaultSubject, 'check'>): ProtocolError {
  const data = {
    extension: EXTENSION_ID,
    code: failure.code,
    path: failure.path,
    ...(failure.issues === undefined ? {} : { issues: failure.issues }),
  };
  if (failure.kind === 'unavailable') return new ProtocolError(ProtocolErrorCode.InternalError, `${EXTENSION_ID}: ${withNoVerdict(failure.message)}`, data);
  const what = subject === 'rider' ? 'rider' : 'tools/resolve request';
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid ${EXTENSION_ID} ${what}: ${faultSentence(failure, subject)}; nothing was evaluated`, data);
}

/** A producer fault found after evaluating (a code the surface may not carry): internal, and still no verdict. */
export function internalInBandError(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InternalError, `${EXTENSION_ID}: ${message}; ${NO_VERDICT}`);
}

/** Ends a sentence with "no verdict was computed" exactly once. */
export function withNoVerdict(sentence: string): string {
  return sentence.includes(NO_VERDICT) ? sentence : `${sentence}; ${NO_VERDICT}`;
}
