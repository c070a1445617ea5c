// Reads the hand-written single source. The registry is checked against its own schema here,
// so everything downstream can trust the Registry type; derived columns are filled in here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { CodegenError } from './codegen-error.js';
import { deriveColumns, type FileRegistry } from './derive-columns.js';
import type { Registry } from './registry-model.js';
import type { RepoPaths } from './repo-paths.js';

export type JsonSchema = { [key: string]: unknown };

export interface ReleasedRegistry {
  readonly version: number;
  readonly file: string;
  readonly registry: Registry;
}

export interface Spec {
  readonly registry: Registry;
  readonly payloadSchema: JsonSchema;
  /** spec/config.schema.json, the gateway config; absent until that file exists. */
  readonly configSchema: JsonSchema | undefined;
  /** spec/rest-api.json, the hand-written paths of the OpenAPI document. */
  readonly restApi: JsonSchema | undefined;
  /** Frozen registries, oldest first. */
  readonly released: readonly ReleasedRegistry[];
}

export function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CodegenError('spec_unreadable', `cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CodegenError('spec_invalid', `${file} is not valid JSON: ${(error as Error).message}`);
  }
}

function readObject(file: string): JsonSchema {
  const value = readJson(file);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CodegenError('spec_invalid', `${file} must hold a JSON object`);
  }
  return value as JsonSchema;
}

function registryChecker(reasonsSchema: JsonSchema): (file: string, value: unknown) => Registry {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
  const validate = ajv.compile(reasonsSchema);
  return (file, value) => {
    if (!validate(value)) {
      const lines = (validate.errors ?? []).map((e) => `  ${e.instancePath || '/'} ${e.message ?? e.keyword}`);
      throw new CodegenError('spec_invalid', `${file} does not match spec/reasons.schema.json:\n${lines.join('\n')}`);
    }
    return deriveColumns(value as FileRegistry);
  };
}

const RELEASED_FILE = /^v([1-9][0-9]*)\.json$/;

export function loadReleased(paths: RepoPaths, check: (file: string, value: unknown) => Registry): ReleasedRegistry[] {
  if (!existsSync(paths.released)) return [];
  return readdirSync(paths.released)
    .flatMap((name) => {
      const match = RELEASED_FILE.exec(name);
      return match?.[1] === undefined ? [] : [{ name, version: Number(match[1]) }];
    })
    .sort((a, b) => a.version - b.version)
    .map(({ name, version }) => {
      const file = join(paths.released, name);
      return { version, file, registry: check(file, readJson(file)) };
    });
}

export function loadSpec(paths: RepoPaths): Spec {
  const check = registryChecker(readObject(paths.reasonsSchema));
  return {
    registry: check(paths.reasons, readJson(paths.reasons)),
    payloadSchema: readObject(paths.payloadSchema),
    configSchema: existsSync(paths.configSchema) ? readObject(paths.configSchema) : undefined,
    restApi: existsSync(paths.restApi) ? readObject(paths.restApi) : undefined,
    released: loadReleased(paths, check),
  };
}
