import type { CarriageClient } from '../carriage-client.js';
import { messageOf } from '../message-of.js';
import { sdk1CarriageClient, type Sdk1Client } from '../sdk1-carriage-client.js';

/**
 * The part of LangChain's `MultiServerMCPClient` (`@langchain/mcp-adapters` 1.x) the carriages
 * use, written out so this package needs no LangChain to build or to load.
 */
export interface LangChainMcpClient {
  getClient(serverName: string): Promise<Sdk1Client | undefined>;
}

const NOT_MIRRORED = '@langchain/mcp-adapters creates its MCP clients without client capabilities, so this 2025-11-25 session cannot mirror the extension at initialize';

/**
 * One server of a MultiServerMCPClient, whose SDK 1.x Client (public through `getClient`) was
 * created without capabilities: the rider is never negotiated, check mode is the in-band carriage.
 * A server that is not connected (a failed connection, or one LangChain was told to skip) leaves REST.
 */
export async function langChainCarriageClient(mcp: LangChainMcpClient, server: string): Promise<CarriageClient> {
  let why: string;
  try {
    const client = await mcp.getClient(server);
    if (client !== undefined) return sdk1CarriageClient(client, NOT_MIRRORED);
    why = `LangChain has no connected MCP server named ${JSON.stringify(server)}`;
  } catch (error) {
    why = `LangChain could not connect its MCP servers (${messageOf(error)})`;
  }
  return {
    advertisement: { state: 'unknown', why },
    rider: { ok: false, why },
    callTool: () => Promise.reject(new Error(why)),
  };
}
