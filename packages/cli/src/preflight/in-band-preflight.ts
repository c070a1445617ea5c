import type { Policy } from '@mcpproxy/schema';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-spec.js';
import type { PreflightReport } from './preflight-report.js';

export interface InBandOptions {
  readonly policy?: Policy;
  readonly profile?: string;
}

export async function inBandPreflight(_context: CommandContext, _ids: readonly string[], _options: InBandOptions): Promise<PreflightReport> {
  throw new CliError('in_band', '--in-band is not available yet');
}
