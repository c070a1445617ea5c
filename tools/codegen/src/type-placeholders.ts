// The TypeScript a registry placeholder stands for in each strength: registry types for
// producers, plain strings and numbers for consumers. Reason codes are never spelled out here.
import { CodegenError } from './codegen-error.js';
import { SURFACE_NAMES, surfaceCodes, type Registry, type SurfaceName } from './registry-model.js';
import type { Strength } from './resolve-placeholders.js';

export const SURFACE_CODE_TYPES: Readonly<Record<SurfaceName, string>> = {
  rest_operator: 'RestOperatorReasonCode',
  rest_agent: 'RestAgentReasonCode',
  rider: 'RiderReasonCode',
  check: 'CheckReasonCode',
  resolve: 'ResolveReasonCode',
};

/** Registry-module names the types module imports. */
export const REGISTRY_TYPE_IMPORTS = ['Action', 'EXTENSION_ID', 'REASONS', 'RegistryCode', 'SETTINGS_VERSION', 'Verdict', ...Object.values(SURFACE_CODE_TYPES)];

/** Defs whose type the registry module already exports under the same name. */
export const REGISTRY_OWNED_DEFS = new Set(['Action', 'Verdict']);

function isSurface(value: unknown): value is SurfaceName {
  return typeof value === 'string' && (SURFACE_NAMES as readonly string[]).includes(value);
}

/** TypeScript text for a placeholder, or undefined for a pure constraint (retryable_rules). */
export function placeholderType(form: unknown, registry: Registry, strength: Strength): string | undefined {
  if (form === 'extension') return 'typeof EXTENSION_ID';
  if (form === 'settings_version') return strength === 'strict' ? 'typeof SETTINGS_VERSION' : 'number';
  if (form === 'verdict') return 'Verdict';
  if (form === 'action') return strength === 'strict' ? 'Action' : 'string';
  if (form === 'retryable_rules') return undefined;
  if (typeof form === 'object' && form !== null && isSurface((form as Record<string, unknown>)['reason'])) {
    if (strength === 'lenient') return 'string';
    const surface = (form as Record<string, SurfaceName>)['reason'] as SurfaceName;
    return surfaceCodes(registry, surface).length === 0 ? 'never' : SURFACE_CODE_TYPES[surface];
  }
  throw new CodegenError('unknown_placeholder', `unknown placeholder {"x-registry": ${JSON.stringify(form)}}`);
}
