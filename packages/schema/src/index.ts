// @mcpproxy/schema: the registry, types and validators of the app.mcpproxy/required-tools
// extension, generated from spec/, plus the few hand-written helpers consumers share.
export * from './generated/registry.js';
export { reasonTreatment, type ReasonTreatment } from './reason-treatment.js';
export { verdictRank, worstVerdict } from './verdict-order.js';
