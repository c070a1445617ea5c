#!/usr/bin/env node
// The fixture upstream MCP server: tests and the embedded default spawn it
// (`node dist/fixture-upstream/main.js --help`).
import { readFileSync, writeFileSync } from 'node:fs';
import type { Server } from '@modelcontextprotocol/server';
import { demoTools } from './demo-tools.js';
import { serveFixtureHttp } from './fixture-http.js';
import { FIXTURE_USAGE, parseFixtureOptions } from './fixture-options.js';
import { createFixtureServer } from './fixture-server.js';
import type { FixtureCatalog } from './fixture-server.js';
import { serveFixtureStdio } from './fixture-stdio.js';
import { announceContentChanges, contentChanges, NO_CONTENT, parseFixtureContent, type FixtureContent } from './fixture-content.js';
import { FixtureEvents } from './fixture-events.js';
import { NO_OVERLOAD, readFixtureOverloadFile } from './fixture-overload.js';
import type { FixtureOverload } from './fixture-overload.js';
import { readFixtureToolsFile } from './fixture-tools.js';
import type { FixtureTool } from './fixture-tools.js';
import { MessageCounter } from './message-counter.js';
import { StreamCounter } from './stream-counter.js';

async function main(argv: readonly string[]): Promise<void> {
  if (argv.includes('--help')) {
    process.stdout.write(`${FIXTURE_USAGE}\n`);
    return;
  }
  const parsed = parseFixtureOptions(argv);
  if (!parsed.ok) {
    process.stderr.write(`mcp-fixture: ${parsed.message}\n${FIXTURE_USAGE}\n`);
    process.exit(2);
  }
  const options = parsed.options;
  const load = (): FixtureTool[] => (options.toolsFile === undefined ? demoTools() : readFixtureToolsFile(options.toolsFile));
  let tools = load();
  const loadContent = (): FixtureContent => (options.toolsFile === undefined ? NO_CONTENT : parseFixtureContent(JSON.parse(readFileSync(options.toolsFile, 'utf8')) as unknown, options.toolsFile));
  let content = loadContent();
  const loadOverload = (): FixtureOverload => (options.overloadFile === undefined ? NO_OVERLOAD : readFixtureOverloadFile(options.overloadFile));
  let overload = loadOverload();
  const catalog: FixtureCatalog = {
    tools: () => tools,
    overload: () => overload,
    pageSize: options.pageSize,
    serverName: options.name,
    exit: () => process.exit(0),
    events: new FixtureEvents(options.eventsFile),
    content: () => content,
  };
  // SIGUSR1 ends the start delay at once, so a test can hold a start for as long as it needs and
  // release it on an event instead of guessing how long a loaded machine takes to get there. The
  // handler is in place before the pid file tells a test where to send it: a SIGUSR1 that came first
  // would start Node's inspector (its default action in Node) and leave the start held.
  const ready = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, options.startDelayMs);
    process.once('SIGUSR1', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  if (options.pidFile !== undefined) writeFileSync(options.pidFile, String(process.pid));
  const counter = new MessageCounter(options.countFile);
  const liveServers = new Set<Server>();
  let notifyHttp = (): void => undefined;
  let announceHttp = (_changes: ReturnType<typeof contentChanges>): void => undefined;

  process.on('SIGUSR2', () => process.exit(0));
  process.on('SIGHUP', () => {
    try {
      overload = loadOverload();
    } catch (cause) {
      process.stderr.write(`mcp-fixture: reading the overload file failed, keeping the old switch: ${String(cause)}\n`);
    }
    let reloaded: FixtureTool[];
    let reloadedContent: FixtureContent;
    try {
      reloaded = load();
      reloadedContent = loadContent();
    } catch (cause) {
      process.stderr.write(`mcp-fixture: reload failed, keeping the old tools: ${String(cause)}\n`);
      return;
    }
    const changes = contentChanges(content, reloadedContent);
    content = reloadedContent;
    for (const server of liveServers) announceContentChanges(server, changes);
    announceHttp(changes);
    // Only a changed list is announced, so flipping the overload switch alone sends the client nothing.
    if (JSON.stringify(reloaded) === JSON.stringify(tools)) return;
    tools = reloaded;
    for (const server of liveServers) void server.sendToolListChanged().catch(() => undefined);
    notifyHttp();
  });

  if (options.httpPort === undefined) {
    await ready;
    serveFixtureStdio(() => createFixtureServer(catalog), counter, (server) => liveServers.add(server));
    return;
  }
  const http = await serveFixtureHttp(() => createFixtureServer(catalog), counter, {
    port: options.httpPort,
    streams: new StreamCounter(options.streamsFile),
    ready,
    ...(options.requireToken === undefined ? {} : { requireToken: options.requireToken }),
    overload: () => overload,
  });
  notifyHttp = () => http.notifyToolsChanged();
  announceHttp = (changes) => http.announceContentChanges(changes);
  process.stdout.write(`${JSON.stringify({ url: http.url, pid: process.pid })}\n`);
  process.on('SIGTERM', () => void http.close().then(() => process.exit(0)));
}

main(process.argv.slice(2)).catch((cause: unknown) => {
  process.stderr.write(`mcp-fixture: ${cause instanceof Error ? cause.message : String(cause)}\n`);
  process.exit(1);
});
