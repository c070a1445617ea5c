// The four registry changes as edits of spec/reasons.json's content (the derived columns left
// out). Each returns the edited registry or an error that names the flag at fault; nothing here
// touches a file. The version a change is stamped with (since, deprecated_in, activated_in) is
// given by the caller, which knows whether the current settings version has shipped.
import { flag, flagList, type Flags } from './registry-flags.js';
import { SURFACE_NAMES, type ReasonClass } from './registry-model.js';

type Json = Record<string, unknown>;
export interface RegistryFileJson extends Json {
  settings_version: number;
  actions: string[];
  verdicts: { verdict: string; exit_code: number }[];
  reasons: Record<string, Json>;
}

export type ChangeKind = 'add' | 'deprecate' | 'activate' | 'reword';

export type ChangeResult = { readonly ok: true; readonly registry: RegistryFileJson } | { readonly ok: false; readonly error: string };

const CLASSES: readonly ReasonClass[] = ['retryable', 'fix_state', 'permanent'];
const CODE = /^[a-z][a-z0-9_]{0,63}$/;
/** Key order of an entry as the commands write it; the derived columns are not written. */
const ENTRY_ORDER = ['class', 'action', 'diagnostic_actions', 'verdict', 'surfaces', 'status', 'since', 'deprecated_in', 'replaced_by', 'activated_in', 'wording'];

function ordered(entry: Json): Json {
  const keys = [...ENTRY_ORDER.filter((k) => Object.hasOwn(entry, k)), ...Object.keys(entry).filter((k) => !ENTRY_ORDER.includes(k))];
  return Object.fromEntries(keys.filter((k) => entry[k] !== undefined).map((k) => [k, entry[k]]));
}

function entryOf(registry: RegistryFileJson, code: string): Json | undefined {
  return Object.hasOwn(registry.reasons, code) ? registry.reasons[code] : undefined;
}

function withEntry(registry: RegistryFileJson, code: string, entry: Json): RegistryFileJson {
  return { ...registry, reasons: { ...registry.reasons, [code]: ordered(entry) } };
}

function fail(error: string): ChangeResult {
  return { ok: false, error };
}

/** `--surfaces all`, `--surfaces none` or a comma list of surface names. */
export function parseSurfaces(flags: Flags): Record<string, boolean> | string {
  const names = flagList(flags, 'surfaces');
  if (names.length === 1 && names[0] === 'all') return Object.fromEntries(SURFACE_NAMES.map((s) => [s, true]));
  if (names.length === 1 && names[0] === 'none') return Object.fromEntries(SURFACE_NAMES.map((s) => [s, false]));
  const unknown = names.filter((n) => !(SURFACE_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0) return `--surfaces: ${unknown.join(', ')} is not a surface (one of ${SURFACE_NAMES.join(', ')}, or all, or none)`;
  return Object.fromEntries(SURFACE_NAMES.map((s) => [s, names.includes(s)]));
}

/** `--variant-detail NAME=TEXT` and `--variant-remediation NAME=TEXT`, merged over the variants already there. */
function variants(flags: Flags, existing: Json | undefined): Json | string | undefined {
  const merged: Record<string, Json> = structuredClone((existing ?? {}) as Record<string, Json>);
  for (const field of ['detail', 'remediation'] as const) {
    for (const value of flags.get(`variant-${field}`) ?? []) {
      const eq = value.indexOf('=');
      const name = eq < 0 ? '' : value.slice(0, eq);
      if (!CODE.test(name) || value.slice(eq + 1) === '') return `--variant-${field} ${JSON.stringify(value)}: write NAME=TEXT (NAME like ${SURFACE_NAMES[0]}, TEXT not empty)`;
      merged[name] = { ...(Object.hasOwn(merged, name) ? merged[name] : {}), [field]: value.slice(eq + 1) };
    }
  }
  return Object.keys(merged).length === 0 ? undefined : merged;
}

function wording(flags: Flags, existing: Json | undefined): Json | string {
  const detail = flag(flags, 'detail') ?? existing?.['detail'];
  const remediation = flag(flags, 'remediation') ?? existing?.['remediation'];
  if (typeof detail !== 'string' || detail === '') return '--detail is needed (the sentence a caller reads)';
  if (typeof remediation !== 'string' || remediation === '') return '--remediation is needed (what to do about it, naming only commands that exist)';
  const v = variants(flags, existing?.['variants'] as Json | undefined);
  if (typeof v === 'string') return v;
  return { detail, remediation, ...(v === undefined ? {} : { variants: v }) };
}

export function addCode(registry: RegistryFileJson, flags: Flags, version: number): ChangeResult {
  const code = flag(flags, 'code') ?? '';
  if (!CODE.test(code)) return fail(`--code ${JSON.stringify(code)}: a code is lower case letters, digits and _, starting with a letter, at most 64 characters`);
  if (entryOf(registry, code) !== undefined) return fail(`--code ${code}: the registry already has ${code} (codes are never reused; reword or deprecate it instead)`);
  const cls = flag(flags, 'class') ?? '';
  if (!(CLASSES as readonly string[]).includes(cls)) return fail(`--class ${JSON.stringify(cls)}: one of ${CLASSES.join(', ')}`);
  const verdicts = registry.verdicts.map((v) => v.verdict);
  const verdict = flag(flags, 'verdict') ?? (cls === 'retryable' ? 'degraded_retryable' : undefined);
  if (verdict === undefined || !verdicts.includes(verdict)) {
    return fail(`--verdict ${JSON.stringify(verdict ?? '')}: one of ${verdicts.join(', ')} (a retryable class implies degraded_retryable; other classes must say which)`);
  }
  const action = flag(flags, 'action');
  const diagnostic = flagList(flags, 'diagnostic-actions');
  for (const a of [...(action === undefined ? [] : [action]), ...diagnostic]) {
    if (!registry.actions.includes(a)) return fail(`action ${a} is not in the registry's actions (${registry.actions.join(', ')}); a new action is a change to the actions list, not to one code`);
  }
  const status = flag(flags, 'status') ?? 'active';
  if (status !== 'active' && status !== 'reserved') return fail(`--status ${JSON.stringify(status)}: active or reserved (a new code cannot start deprecated)`);
  const reserved = status === 'reserved';
  const surfaces = reserved ? parseSurfaces(new Map([['surfaces', ['none']]])) : parseSurfaces(flags);
  if (typeof surfaces === 'string') return fail(surfaces);
  if (!reserved && !flags.has('surfaces')) return fail('--surfaces is needed for an active code (all, or a comma list); --status reserved registers a code no producer emits yet');
  const text = wording(flags, undefined);
  if (typeof text === 'string') return fail(text);
  return {
    ok: true,
    registry: withEntry(registry, code, {
      class: cls,
      action,
      diagnostic_actions: diagnostic.length === 0 ? undefined : diagnostic,
      verdict,
      surfaces,
      status: reserved ? 'reserved' : 'active',
      since: version,
      wording: text,
    }),
  };
}

function existing(registry: RegistryFileJson, flags: Flags): { code: string; entry: Json } | string {
  const code = flag(flags, 'code') ?? '';
  const entry = entryOf(registry, code);
  if (entry === undefined) return `--code ${JSON.stringify(code)}: the registry has no such code`;
  return { code, entry };
}

export function deprecateCode(registry: RegistryFileJson, flags: Flags, version: number): ChangeResult {
  const found = existing(registry, flags);
  if (typeof found === 'string') return fail(found);
  if (found.entry['status'] === 'deprecated') return fail(`${found.code} is already deprecated (in settings version ${String(found.entry['deprecated_in'])})`);
  const replacement = flag(flags, 'replaced-by');
  if (replacement !== undefined) {
    const target = entryOf(registry, replacement);
    if (target === undefined) return fail(`--replaced-by ${replacement}: the registry has no such code`);
    if (target['status'] !== 'active' || replacement === found.code) return fail(`--replaced-by ${replacement}: the replacement must be another active code`);
  }
  return { ok: true, registry: withEntry(registry, found.code, { ...found.entry, status: 'deprecated', deprecated_in: version, replaced_by: replacement }) };
}

export function activateCode(registry: RegistryFileJson, flags: Flags, version: number): ChangeResult {
  const found = existing(registry, flags);
  if (typeof found === 'string') return fail(found);
  if (found.entry['status'] !== 'reserved') {
    return fail(`${found.code} is ${String(found.entry['status'])}, not reserved: only a reserved code is activated (its surfaces change once, then never again)`);
  }
  const surfaces = parseSurfaces(flags);
  if (typeof surfaces === 'string') return fail(surfaces);
  if (!Object.values(surfaces).some(Boolean)) return fail('--surfaces: an active code needs at least one surface');
  return { ok: true, registry: withEntry(registry, found.code, { ...found.entry, surfaces, status: 'active', activated_in: version }) };
}

export function rewordCode(registry: RegistryFileJson, flags: Flags): ChangeResult {
  const found = existing(registry, flags);
  if (typeof found === 'string') return fail(found);
  if (!['detail', 'remediation', 'variant-detail', 'variant-remediation'].some((f) => flags.has(f))) {
    return fail('nothing to reword: give --detail, --remediation, --variant-detail or --variant-remediation');
  }
  const text = wording(flags, found.entry['wording'] as Json);
  if (typeof text === 'string') return fail(text);
  return { ok: true, registry: withEntry(registry, found.code, { ...found.entry, wording: text }) };
}
