import type { LoggingMessageNotificationParams } from '@modelcontextprotocol/client';

/** What an upstream tells the gateway on its own that a downstream client may want to hear. */
export type UpstreamNotification =
  | { readonly kind: 'resources_list_changed' }
  | { readonly kind: 'prompts_list_changed' }
  /** `uri` is the upstream's own URI (the gateway namespaces it per client). */
  | { readonly kind: 'resource_updated'; readonly uri: string }
  | { readonly kind: 'log'; readonly params: LoggingMessageNotificationParams };
