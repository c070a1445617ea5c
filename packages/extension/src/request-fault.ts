import { MAX_TOOLS, type ValidationIssue } from '@mcpproxy/schema';
import type { InBandFailure } from './in-band-outcome.js';

/** Members v1 reserves: their presence is a malformed request, whatever their value. */
const RESERVED = new Set(['pin_hash', 'expect_hashes', 'wait_ms', 'profile']);

/** Where the fault is, for the reader: the rider (`params._meta[...]`), describe_tool's arguments, or tools/resolve's `_meta`. */
export type FaultSubject = 'rider' | 'check' | 'resolve';

/**
 * One sentence naming the fault of a request the source refused, in the words of its surface
 * (check mode's wording is the shipped one: "too many tool_ids: 51 (max 50 with check:true)",
 * "provide 1-50 tool ids"). Never a stack, never more than the first issue.
 */
export function faultSentence(failure: InBandFailure, subject: FaultSubject): string {
  const list = subject === 'check' ? 'tool_ids' : 'tools';
  switch (failure.code) {
    case 'too_many_tools':
      return subject === 'check'
        ? `too many tool_ids: ${failure.count ?? '?'} (max ${failure.max ?? '?'} with check:true)`
        : `too many tools: ${failure.count ?? '?'} (max ${failure.max ?? '?'})`;
    case 'no_tools':
      return subject === 'check' ? `provide 1-${failure.max ?? '?'} tool ids` : `provide 1-${failure.max ?? '?'} tools`;
    case 'invalid_request': {
      const issue = failure.issues?.[0];
      return issue === undefined ? failure.message : issueSentence(issue, subject, list);
    }
    default:
      return failure.message;
  }
}

function issueSentence(issue: ValidationIssue, subject: FaultSubject, list: string): string {
  const segments = issue.path.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = segments[segments.length - 1] ?? '';
  const where = readable(segments, subject);
  if (RESERVED.has(last) && (issue.rule === 'false schema' || issue.rule === 'additionalProperties')) {
    return subject === 'check'
      ? `${where} is not accepted in check mode (hash pinning is REST-only)`
      : `${where} is reserved in settings version 1 and must not be sent`;
  }
  if (issue.rule === 'required' && segments.length === 1 && last === list) {
    return subject === 'check' ? `provide 1-${MAX_TOOLS} tool ids` : `${where} is required (1-${MAX_TOOLS} entries)`;
  }
  switch (issue.rule) {
    case 'additionalProperties':
      if (subject === 'check') return segments[0] === 'filters' ? `unknown filter: ${last}` : `unknown argument: ${last}`;
      return `unknown member ${where}`;
    case 'required':
      return `${where} is required`;
    case 'type':
      return `${where} ${issue.message.replace(/^must be /, 'must be a ').replace(/a (array|object)$/, 'an $1')}`;
    default:
      return `${where} ${issue.message}`;
  }
}

/** `/filters/read_only_only` -> `filters.read_only_only`, `/tool_ids/3` -> `tool_ids[3]`, '' -> the whole request. */
function readable(segments: readonly string[], subject: FaultSubject): string {
  if (segments.length === 0) return subject === 'check' ? 'the arguments' : subject === 'rider' ? 'the rider' : 'the request';
  return segments.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}
