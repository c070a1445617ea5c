import type { CommandContext } from '../command-spec.js';
import { resolveConnection } from '../connection/connection-settings.js';
import { createRestClient, type RestClient } from './rest-client.js';

/** The REST client for a command's connection flags and environment. */
export function restClientFor(context: CommandContext, options: { tokenFlagIsConnection?: boolean } = {}): RestClient {
  return createRestClient(resolveConnection({ values: context.values, env: context.io.env, ...options }));
}
