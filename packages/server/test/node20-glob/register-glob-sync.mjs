// `node --import ./register-glob-sync.mjs ...`: lets the MCP conformance suite run on Node 20.
// The suite's bundle imports `globSync` from "fs", which Node adds in 22; on 20 the import alone
// fails to link, although the server scenarios never call it. Where Node has its own, nothing is
// registered.
import * as fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') register('./conformance-fs-hooks.mjs', import.meta.url);
