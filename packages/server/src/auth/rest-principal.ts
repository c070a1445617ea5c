import type { Scope, Tier } from '@mcpproxy/evaluator';

/** Who is calling the REST API: the operator (admin API key) or an agent token with its scope. */
export type RestPrincipal =
  | { readonly tier: Extract<Tier, 'operator'>; readonly scope: Scope }
  | { readonly tier: Extract<Tier, 'agent'>; readonly scope: Scope; readonly tokenName: string };

export const OPERATOR: RestPrincipal = Object.freeze({ tier: 'operator', scope: Object.freeze({ allowed_servers: '*' }) });
