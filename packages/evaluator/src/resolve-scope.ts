import type { Scope } from './request.js';
import type { GatewaySnapshot } from './snapshot.js';

function profileIncludes(snapshot: GatewaySnapshot, profile: string, server: string): boolean {
  // A profile that does not exist denies every server (a pin naming a deleted profile).
  const servers = snapshot.profiles.get(profile);
  return servers !== undefined && servers.includes(server);
}

/** Scope = allowed_servers ('*' = all) ∩ servers of the profile pin ∩ servers of the active profile. */
export function isServerInScope(snapshot: GatewaySnapshot, scope: Scope, server: string): boolean {
  if (scope.allowed_servers !== '*' && !scope.allowed_servers.includes(server)) return false;
  if (scope.profile_pin !== undefined && !profileIncludes(snapshot, scope.profile_pin, server)) return false;
  if (scope.active_profile !== undefined && !profileIncludes(snapshot, scope.active_profile, server)) return false;
  return true;
}

/** The configured servers the caller may see, in configuration order. */
export function resolveScope(snapshot: GatewaySnapshot, scope: Scope): ReadonlySet<string> {
  const visible = new Set<string>();
  for (const name of snapshot.servers.keys()) {
    if (isServerInScope(snapshot, scope, name)) visible.add(name);
  }
  return visible;
}
