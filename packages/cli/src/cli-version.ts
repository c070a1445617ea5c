import { readFileSync } from 'node:fs';

/** This package's version (from its package.json, so a release bump needs no code change). */
export const CLI_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Sent as User-Agent and X-Client: the gateway records such preflights with surface `cli`. */
export const CLIENT_HEADER = `cli/${CLI_VERSION}`;
