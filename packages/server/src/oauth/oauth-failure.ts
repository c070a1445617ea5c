import { OAuthError } from '@modelcontextprotocol/client';

const MAX_MESSAGE = 300;

/**
 * Why an OAuth step failed, in one line fit for an operator: an authorization server's error code
 * (its description only when it is plain text), or the SDK's message, cut short. A raw response body
 * the SDK quotes is left out: it comes from a server this gateway does not control.
 */
export function describeOAuthFailure(cause: unknown): string {
  if (cause instanceof OAuthError) {
    const said = cause.message !== cause.code && !cause.message.includes('Raw body') ? `: ${cause.message}` : '';
    return clip(`the authorization server answered ${cause.code}${said}`);
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return clip(message.split('Raw body')[0]!.trim());
}

function clip(text: string): string {
  const line = text.replace(/[\r\n\t]+/g, ' ');
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
}
