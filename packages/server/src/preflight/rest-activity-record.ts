import type { ToolResult } from '@mcpproxy/evaluator';
import { activityMetadata, preflightActivityRecord, type PreflightActivityFacts, type PreflightActivityMetadata } from '@mcpproxy/extension';
import type { PreflightActivityRecord } from '@mcpproxy/schema';
import { deepFreeze } from '../json/frozen-json.js';

/**
 * The activity record of a REST preflight (the record every surface writes), sharing one metadata
 * object per shared tool list: a reused memoised evaluation (frozen from its first reuse) hands the
 * same list to every caller, so its records share one frozen object, which the store serialises
 * once (jsonOf). A request nobody repeats pays nothing for it.
 */
export function restActivityRecord(facts: PreflightActivityFacts): PreflightActivityRecord {
  return Object.isFrozen(facts.tools) ? preflightActivityRecord(facts, sharedMetadataOf(facts)) : preflightActivityRecord(facts);
}

const shared = new WeakMap<readonly ToolResult[], PreflightActivityMetadata>();

function sharedMetadataOf(facts: PreflightActivityFacts): PreflightActivityMetadata {
  let metadata = shared.get(facts.tools);
  if (metadata === undefined) {
    metadata = deepFreeze(activityMetadata(facts));
    shared.set(facts.tools, metadata);
  }
  return metadata;
}
