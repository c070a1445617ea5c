// @mcpproxy/schema: the registry, types and validators of the app.mcpproxy/required-tools
// extension, generated from spec/, plus the few hand-written helpers consumers share.
export * from './generated/registry.js';
export type * from './generated/types.js';
export { strictValidators, lenientValidators } from './generated/validators.js';
export type { DefName, StrictValidators, LenientValidators } from './generated/validators.js';
export { checkValue, formatIssues, type CheckResult, type ValidationIssue } from './check-value.js';
export { reasonTreatment, type ReasonTreatment } from './reason-treatment.js';
export { checkRestPreflightResponse } from './rest-preflight-response.js';
export { verdictRank, worstVerdict } from './verdict-order.js';
