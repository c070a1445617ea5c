import { Transform } from 'node:stream';
import type { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { MessageCounter } from './message-counter.js';

/**
 * Serves the fixture over this process's stdio (both protocol eras, via serveStdio). Input goes
 * through a line-counting tap first, so every received message is counted exactly once.
 */
export function serveFixtureStdio(createServer: () => Server, counter: MessageCounter, onServer: (server: Server) => void): void {
  let pending = '';
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) counter.addLine(line);
      callback(null, chunk);
    },
  });
  process.stdin.pipe(tap);
  // The client closed our stdin: nothing more can arrive, so leave.
  tap.on('end', () => setTimeout(() => process.exit(0), 50));
  serveStdio(
    () => {
      const server = createServer();
      onServer(server);
      return server;
    },
    { transport: new StdioServerTransport(tap, process.stdout) },
  );
}
