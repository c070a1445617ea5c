// Runs quicktype-core over prepared $defs and returns its TypeScript (just types, readonly
// members, literal unions instead of enums).
import { FetchingJSONSchemaStore, InputData, JSONSchemaInput, quicktype } from 'quicktype-core';
import { AcronymStyleOptions } from 'quicktype-core/dist/esm/support/Acronyms.js';
import { CodegenError } from './codegen-error.js';
import type { JsonSchema } from './load-spec.js';

export interface QuicktypeTopLevel {
  /** The $defs entry to render. */
  readonly def: string;
  /** The name quicktype gives it. */
  readonly name: string;
}

export async function runQuicktype(schema: JsonSchema, topLevels: readonly QuicktypeTopLevel[]): Promise<string> {
  if (topLevels.length === 0) return '';
  const input = new JSONSchemaInput(new FetchingJSONSchemaStore());
  const text = JSON.stringify(schema);
  for (const top of topLevels) {
    await input.addSource({ name: top.name, schema: text, uris: [`#/$defs/${top.def}`] });
  }
  const inputData = new InputData();
  inputData.addInput(input);
  try {
    const result = await quicktype({
      inputData,
      lang: 'typescript',
      rendererOptions: {
        'just-types': 'true',
        // Keep our names as written (RestToolRef, not RESTToolRef).
        'acronym-style': AcronymStyleOptions.Original,
        'prefer-unions': 'true',
        'prefer-const-values': 'true',
        readonly: 'true',
        'prefer-unknown': 'true',
      },
    });
    return result.lines.join('\n');
  } catch (error) {
    throw new CodegenError('emit_failed', `quicktype failed: ${(error as Error).message}`);
  }
}
