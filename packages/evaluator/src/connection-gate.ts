import type { ConnectionState } from './snapshot.js';

export type ConnectionGate = 'oauth_required' | 'server_unhealthy' | 'server_initializing';

/** Gates 11-13: what the upstream connection state says, undefined when it is ready. */
export function connectionGate(state: ConnectionState | undefined): ConnectionGate | undefined {
  switch (state) {
    case 'ready':
      return undefined;
    case 'pending_auth':
      return 'oauth_required';
    case 'error':
    case 'disconnected':
      return 'server_unhealthy';
    default:
      // connecting, discovering, authenticating, or no state yet
      return 'server_initializing';
  }
}
