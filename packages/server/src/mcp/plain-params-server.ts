import { ProtocolError, ProtocolErrorCode, Server, type JSONRPCRequest, type Result, type ServerContext, type Transport } from '@modelcontextprotocol/server';
import { retryFieldsFault } from './retry-fields.js';

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * A Server whose answer to a caller's bad params is always invalid params (-32602) with a plain
 * message naming each field, on both revisions. The SDK checks a request against its schema before
 * any handler runs and reports a failure as the schema library's issue list in JSON: as an internal
 * error (-32603) for tools/list, inside an invalid-params message for tools/call. Retry fields of
 * the wrong type (`inputResponses`, `requestState`), which the SDK would quietly drop, are refused the
 * same way (retry-fields.ts).
 */
export class PlainParamsServer extends Server {
  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    // The SDK lifts the retry fields out before a handler could see them: look at the message first.
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      // Every transport has checked the message against the JSON-RPC schema before handing it on, so a
      // request is what has a method and an id; another schema parse of the whole message (the SDK's
      // isJSONRPCRequest) cost 0.7 µs per request, 2.1 µs with a 50-ID rider in its params.
      const request = 'method' in message && 'id' in message ? (message as JSONRPCRequest) : undefined;
      const fault = request === undefined ? undefined : retryFieldsFault(request);
      if (request === undefined || fault === undefined) {
        deliver?.(message, extra);
        return;
      }
      const error = { code: ProtocolErrorCode.InvalidParams, message: `Invalid params for ${request.method}: ${fault}` };
      transport.send({ jsonrpc: '2.0', id: request.id, error }).catch((cause: unknown) => this.onerror?.(cause instanceof Error ? cause : new Error(String(cause))));
    };
  }

  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        throw plainParamsError(method, error) ?? error;
      }
    };
  }
}

interface SchemaIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** The invalid-params error in plain words when `error` is the SDK's dump of a request's schema issues. */
export function plainParamsError(method: string, error: unknown): ProtocolError | undefined {
  if (!(error instanceof Error)) return undefined;
  const isSdkDump = error instanceof ProtocolError ? error.code === ProtocolErrorCode.InvalidParams && error.message.startsWith(`Invalid ${method} request: [`) : error.message.startsWith('[');
  if (!isSdkDump) return undefined;
  const issues = schemaIssues(error.message.slice(error.message.indexOf('[')));
  if (issues === undefined) return undefined;
  const faults = issues.map((issue) => `${issue.path.length === 0 ? 'the request' : issue.path.join('.')}: ${issue.message.replace(/^Invalid input: /, '')}`);
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${faults.join('; ')}`);
}

function schemaIssues(text: string): SchemaIssue[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
  const issues: SchemaIssue[] = [];
  for (const item of parsed as unknown[]) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { path, message } = item as { path?: unknown; message?: unknown };
    if (!Array.isArray(path) || !path.every((p) => typeof p === 'string' || typeof p === 'number') || typeof message !== 'string') return undefined;
    issues.push({ path, message });
  }
  return issues;
}
