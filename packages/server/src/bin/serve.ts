#!/usr/bin/env node
// The `serve` bin: V8's small-heap flags first, then everything else. The command is imported
// dynamically because a static import graph is loaded and compiled before any of its code runs, and
// loading the gateway's modules is the process's first allocation burst: with V8's defaults it grows
// the young generation from 2 x 1 MiB to 2 x 8 MiB, which then stays committed (~14 MiB of RSS) until
// a memory-reducing collection happens to shrink it. small-heap-policy.ts says why the flags.
import { preferSmallHeap } from '../small-heap-policy.js';

preferSmallHeap();
await import('./serve-command.js');
