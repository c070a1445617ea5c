// packages/schema/fixtures/: instances downstream implementers test against. Valid: for every
// emittable code on every surface the registry allows it, a verdict with the registry's
// wording (and one per wording variant), plus a ready verdict per surface. Invalid: one
// instance per rule the schema enforces, with the ajv keyword and instance path it must fail
// with. Every fixture is validated here, so a fixture that does not behave as stated fails
// codegen instead of misleading a consumer.
import type { ValidateFunction } from 'ajv';
import { createAjv } from './ajv-instance.js';
import { CodegenError } from './codegen-error.js';
import type { GeneratedFile } from './generated-file.js';
import { jsonBanner } from './generated-banner.js';
import type { Spec } from './load-spec.js';
import { didYouMeanCode } from './exact-verdict-types.js';
import { EXAMPLE_CHECKED_AT, EXAMPLE_HASH, EXAMPLE_ID, EXAMPLE_REQUEST_ID, fillWording } from './fixture-values.js';
import { emittableCodes, SURFACE_NAMES, surfaceCodes, type ReasonSpec, type SurfaceName } from './registry-model.js';
import { STRENGTHS, type Strength } from './resolve-placeholders.js';
import { jsonText } from './render-source.js';
import { schemaIdOf, type SchemaSet } from './schema-set.js';
import { schemaLimits } from './schema-limits.js';

const DIR = 'packages/schema/fixtures';
const SOURCE = 'spec/reasons.json, spec/required-tools.schema.json';

/** The per-tool verdict def of each registry surface. */
export const SURFACE_DEFS: Readonly<Record<SurfaceName, string>> = {
  rest_operator: 'RestToolVerdict',
  rest_agent: 'RestAgentToolVerdict',
  rider: 'ToolVerdict',
  check: 'CheckModeToolVerdict',
  resolve: 'ResolveFacet',
};

type Instance = Record<string, unknown>;

interface ValidFixture {
  readonly file: string;
  readonly def: string;
  readonly surface: SurfaceName;
  readonly status: 'ready' | 'unavailable';
  readonly reason?: string;
  readonly variant?: string;
  readonly instance: Instance;
}

interface InvalidFixture {
  readonly file: string;
  readonly def: string;
  readonly strength: Strength;
  readonly description: string;
  readonly error: { readonly keyword: string; readonly instancePath: string };
  readonly instance: unknown;
}

function carriesId(surface: SurfaceName): boolean {
  return surface !== 'resolve';
}

function unavailable(surface: SurfaceName, code: string, reason: ReasonSpec, variant?: string, suggestionCode?: string): Instance {
  const text = variant === undefined ? {} : (reason.wording.variants?.[variant] ?? {});
  const action = variant !== undefined && reason.diagnostic_actions?.includes(variant) ? variant : reason.action;
  return {
    ...(carriesId(surface) ? { id: EXAMPLE_ID } : {}),
    status: 'unavailable',
    reason: code,
    retryable: reason.retryable,
    ...(action === undefined ? {} : { action }),
    detail: fillWording(text.detail ?? reason.wording.detail),
    remediation: fillWording(text.remediation ?? reason.wording.remediation),
    ...(code === suggestionCode && variant === undefined && surface !== 'resolve' ? { did_you_mean: ['github:create_issues'] } : {}),
  };
}

/** Variants named for the operator tier carry what only an operator may see. */
function variantAllowed(variant: string, surface: SurfaceName): boolean {
  return !variant.endsWith('_operator') || surface === 'rest_operator';
}

function validFixtures(spec: Spec): ValidFixture[] {
  const fixtures: ValidFixture[] = [];
  const suggestionCode = didYouMeanCode(spec.payloadSchema);
  for (const surface of SURFACE_NAMES) {
    const def = SURFACE_DEFS[surface];
    const ready: Instance = carriesId(surface) ? { id: EXAMPLE_ID, status: 'ready' } : { status: 'ready' };
    fixtures.push({ file: `valid/${surface}/ready.json`, def, surface, status: 'ready', instance: ready });
    if (surface === 'rest_operator') {
      fixtures.push({ file: `valid/${surface}/ready-with-hash.json`, def, surface, status: 'ready', instance: { ...ready, hash: EXAMPLE_HASH } });
    }
    for (const code of surfaceCodes(spec.registry, surface)) {
      const reason = spec.registry.reasons[code];
      if (reason === undefined) continue;
      fixtures.push({ file: `valid/${surface}/${code}.json`, def, surface, status: 'unavailable', reason: code, instance: unavailable(surface, code, reason, undefined, suggestionCode) });
      for (const variant of Object.keys(reason.wording.variants ?? {}).filter((v) => variantAllowed(v, surface))) {
        fixtures.push({
          file: `valid/${surface}/${code}.${variant}.json`,
          def,
          surface,
          status: 'unavailable',
          reason: code,
          variant,
          instance: unavailable(surface, code, reason, variant),
        });
      }
    }
  }
  return fixtures;
}

function invalidFixtures(spec: Spec): InvalidFixture[] {
  const { registry } = spec;
  const limits = schemaLimits(spec.payloadSchema);
  const codes = emittableCodes(registry);
  const suggestionCode = didYouMeanCode(spec.payloadSchema);
  const out: InvalidFixture[] = [];
  const add = (file: string, def: string, description: string, keyword: string, instancePath: string, instance: unknown, strength: Strength = 'strict'): void => {
    out.push({ file: `invalid/${file}.json`, def, strength, description, error: { keyword, instancePath }, instance });
  };
  const base = (surface: SurfaceName, code: string): Instance => {
    const reason = registry.reasons[code];
    if (reason === undefined) throw new CodegenError('emit_failed', `no registry entry for ${code}`);
    return unavailable(surface, code, reason);
  };
  const ids = (n: number): { id: string }[] => Array.from({ length: n }, (_, i) => ({ id: `github:tool_${i}` }));

  add('rider/no-tools', 'RequestRider', 'A rider needs at least one tool.', 'minItems', '/tools', { tools: [] });
  add('rider/too-many-tools', 'RequestRider', `A rider carries at most ${limits.maxTools} tools, counted before dedup.`, 'maxItems', '/tools', { tools: ids(limits.maxTools + 1) });
  for (const reserved of ['pin_hash', 'expect_hashes', 'wait_ms', 'profile']) {
    add(`rider/reserved-${reserved}`, 'RequestRider', `${reserved} is reserved in the rider: its presence is a malformed rider.`, 'false schema', `/${reserved}`, {
      tools: ids(1),
      [reserved]: reserved === 'wait_ms' ? 1000 : reserved === 'expect_hashes' ? [EXAMPLE_HASH] : 'x',
    });
  }
  add('rider/pin-on-tool', 'RequestRider', 'Pins are reserved in the rider, on a tool too.', 'false schema', '/tools/0/pin_hash', { tools: [{ id: EXAMPLE_ID, pin_hash: EXAMPLE_HASH }] });
  add('rider/unknown-field', 'RequestRider', 'A rider has no unknown fields.', 'additionalProperties', '', { tools: ids(1), verbose: true });
  add('rider/policy-not-object', 'RequestRider', 'policy is an object of three booleans.', 'type', '/policy', { tools: ids(1), policy: 'read_only_only' });
  add('rest-request/too-many-tools', 'RestPreflightRequest', `REST takes at most ${limits.restMaxTools} tools.`, 'maxItems', '/tools', { tools: ids(limits.restMaxTools + 1) });
  add('rest-request/wait-too-long', 'RestPreflightRequest', 'wait_ms is at most 10000.', 'maximum', '/wait_ms', { tools: ids(1), wait_ms: 10001 });
  add('check-arguments/too-many-tools', 'CheckModeArguments', `Check mode takes at most ${limits.maxTools} tool ids.`, 'maxItems', '/tool_ids', { tool_ids: ids(limits.maxTools + 1).map((t) => t.id), check: true });
  add('check-arguments/expect-hashes', 'CheckModeArguments', 'Check mode rejects expect_hashes in any form.', 'false schema', '/expect_hashes', { tool_ids: [EXAMPLE_ID], check: true, expect_hashes: {} });
  add('check-arguments/filters-without-check', 'CheckModeArguments', 'filters need check: true.', 'required', '', { tool_ids: [EXAMPLE_ID], filters: { read_only_only: true } });
  add('settings/other-version', 'Settings', `A producer advertises settings version ${registry.settings_version} only.`, 'const', '/version', { version: registry.settings_version + 1 });

  add('tool-verdict/ready-with-reason', 'ToolVerdict', 'A ready verdict carries only id and status.', 'propertyNames', '', { id: EXAMPLE_ID, status: 'ready', reason: codes[0] });
  add('tool-verdict/unavailable-without-reason', 'ToolVerdict', 'An unavailable verdict needs a reason.', 'required', '', { id: EXAMPLE_ID, status: 'unavailable', retryable: false });
  add('tool-verdict/unavailable-without-retryable', 'ToolVerdict', 'An unavailable verdict needs retryable.', 'required', '', { id: EXAMPLE_ID, status: 'unavailable', reason: codes[0] });
  add('tool-verdict/hash-on-wire', 'ToolVerdict', 'The extension wire never carries a hash.', 'additionalProperties', '', { id: EXAMPLE_ID, status: 'ready', hash: EXAMPLE_HASH });
  if (suggestionCode !== undefined) {
    add('tool-verdict/did-you-mean-too-long', 'ToolVerdict', 'did_you_mean holds at most 3 names.', 'maxItems', '/did_you_mean', {
      ...base('rider', suggestionCode),
      did_you_mean: ['github:a', 'github:b', 'github:c', 'github:d'],
    });
  }
  add('tool-verdict/unknown-code', 'ToolVerdict', 'A producer emits only the codes of its settings version (a consumer accepts this one).', 'enum', '/reason', {
    id: EXAMPLE_ID,
    status: 'unavailable',
    reason: 'some_future_code',
    retryable: false,
  });
  add('tool-verdict/malformed-code-lenient', 'ToolVerdict', 'Even a consumer needs a well-formed code.', 'pattern', '/reason', {
    id: EXAMPLE_ID,
    status: 'unavailable',
    reason: 'Not A Code',
    retryable: false,
  }, 'lenient');
  add('rest-agent-verdict/hash', 'RestAgentToolVerdict', 'The agent tier never sees hashes.', 'false schema', '/hash', { id: EXAMPLE_ID, status: 'ready', hash: EXAMPLE_HASH });

  for (const code of codes) {
    const reason = registry.reasons[code];
    if (reason === undefined) continue;
    const surface = SURFACE_NAMES.find((s) => reason.surfaces[s]) ?? 'rest_operator';
    const def = SURFACE_DEFS[surface];
    for (const strength of STRENGTHS) {
      add(`retryable-mismatch/${strength}/${code}`, def, `The registry says ${code} has retryable ${reason.retryable}; ${strength} validators enforce it.`, 'const', '/retryable', { ...base(surface, code), retryable: !reason.retryable }, strength);
    }
    const allowedActions = [...new Set([...(reason.action === undefined ? [] : [reason.action]), ...(reason.diagnostic_actions ?? [])])];
    const wrongAction = registry.actions.find((a) => !allowedActions.includes(a));
    if (wrongAction !== undefined) {
      add(`action-not-allowed/${code}`, def, allowedActions.length === 0 ? `${code} carries no action.` : `${code} takes ${allowedActions.join(' or ')} only.`,
        allowedActions.length === 0 ? 'false schema' : allowedActions.length === 1 ? 'const' : 'enum', '/action', { ...base(surface, code), action: wrongAction });
    }
    if (code !== suggestionCode && surface !== 'resolve') {
      add(`did-you-mean-not-on/${code}`, def, `did_you_mean belongs to ${suggestionCode ?? 'no code'} only.`, 'const', '/reason', { ...base(surface, code), did_you_mean: ['github:create_issues'] });
    }
    for (const other of SURFACE_NAMES.filter((s) => !reason.surfaces[s])) {
      const instance = base(other, code);
      add(`code-not-on-surface/${other}/${code}`, SURFACE_DEFS[other], `The registry does not allow ${code} on the ${other} surface.`, 'enum', '/reason', instance);
    }
  }
  return out;
}

function compileValidators(set: SchemaSet): Record<Strength, (def: string) => ValidateFunction> {
  const ajv = createAjv();
  for (const strength of STRENGTHS) ajv.addSchema(set.resolved[strength]);
  const get = (strength: Strength) => (def: string): ValidateFunction => {
    const validate = ajv.getSchema(`${schemaIdOf(set.resolved[strength], 'resolved schema')}#/$defs/${def}`);
    if (validate === undefined) throw new CodegenError('emit_failed', `no $defs entry ${def} for a fixture`);
    return validate;
  };
  return { strict: get('strict'), lenient: get('lenient') };
}

function verify(set: SchemaSet, valid: readonly ValidFixture[], invalid: readonly InvalidFixture[]): void {
  const validators = compileValidators(set);
  for (const fixture of valid) {
    const validate = validators.strict(fixture.def);
    if (!validate(fixture.instance)) {
      throw new CodegenError('emit_failed', `fixture ${fixture.file} does not validate as ${fixture.def}: ${JSON.stringify(validate.errors)}`);
    }
  }
  for (const fixture of invalid) {
    const validate = validators[fixture.strength](fixture.def);
    const failed = !validate(fixture.instance);
    const matches = (validate.errors ?? []).some((e) => e.keyword === fixture.error.keyword && e.instancePath === fixture.error.instancePath);
    if (!failed || !matches) {
      throw new CodegenError('emit_failed', `fixture ${fixture.file} should fail ${fixture.error.keyword} at "${fixture.error.instancePath}", got ${JSON.stringify(validate.errors)}`);
    }
  }
}

export function emitFixtures(spec: Spec, set: SchemaSet): GeneratedFile[] {
  const valid = validFixtures(spec);
  const invalid = invalidFixtures(spec);
  verify(set, valid, invalid);
  const $comment = jsonBanner(SOURCE);
  const files: GeneratedFile[] = [
    ...valid.map(({ file, instance, ...meta }) => ({ path: `${DIR}/${file}`, content: jsonText({ $comment, ...meta, strength: 'strict', instance }) })),
    ...invalid.map(({ file, instance, ...meta }) => ({ path: `${DIR}/${file}`, content: jsonText({ $comment, ...meta, instance }) })),
  ];
  const facet = {
    verdict: 'blocked',
    checked_at: EXAMPLE_CHECKED_AT,
    request_id: EXAMPLE_REQUEST_ID,
    tools: valid.filter((f) => f.surface === 'rider' && f.variant === undefined).map((f) => f.instance).slice(0, 3),
  };
  const index = {
    $comment,
    settings_version: spec.registry.settings_version,
    description:
      'Fixtures of @mcpproxy/schema. valid: each instance validates with strictValidators[def] (and lenientValidators[def]). invalid: each instance fails validators of the given strength for def, with an ajv error of error.keyword at error.instancePath.',
    example_response_facet: facet,
    valid: valid.map(({ file, def, surface, status, reason, variant }) => ({ file, def, surface, status, reason, variant })),
    invalid: invalid.map(({ file, def, strength, error }) => ({ file, def, strength, error })),
  };
  return [...files, { path: `${DIR}/index.json`, content: jsonText(index) }];
}
