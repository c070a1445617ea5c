// The one ajv configuration codegen compiles with: draft 2020-12, every error reported (each
// names its path and keyword), formats from ajv-formats, and source kept for standalone output.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    // Unknown keywords and ignored schema parts are errors; type and required placement are
    // stylistic in this spec (properties under allOf, required under if/then).
    strict: true,
    strictTypes: false,
    strictRequired: false,
    code: { source: true, esm: true },
    // Shared defs stay functions instead of being copied into every def that references them.
    inlineRefs: false,
  });
  addFormats.default(ajv, ['date-time']);
  return ajv;
}
