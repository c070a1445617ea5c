// A released frozen copy is anchored in git history, not in the tree: settings version N counts
// as released from the first commit whose packages/schema/CHANGELOG.md names "settings version
// N", and spec/released/vN.json must still hold exactly what it held at that commit. A commit
// that edits the copy (with the registry edited to match or not) cannot move the baseline it is
// checked against. Tags are not used: a CI clone may not have them.
//
// Outside a git checkout (an exported tarball, the tests' scratch copies) there is no history
// to anchor to and no commit to guard, so the check has nothing to say. In a shallow clone the
// first commit that names a version may lie beyond the cut; the check then says so in a note
// rather than take the cut for the release. A note, not a failure: a shallow clone cannot fetch
// what it lacks offline, and a full clone (every CI workflow here fetches the whole history)
// runs the check for real.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { mentionsVersion } from './changeset-check.js';
import type { CodegenProblem } from './codegen-error.js';
import type { ReleasedRegistry } from './load-spec.js';
import type { RepoPaths } from './repo-paths.js';

function git(cwd: string, args: readonly string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
  } catch {
    return undefined;
  }
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

/** The work tree's top level when root is one, else undefined (root inside another repository's folder counts as none). */
function checkoutTop(root: string): string | undefined {
  const top = git(root, ['rev-parse', '--show-toplevel'])?.trim();
  return top !== undefined && relative(top, root) === '' ? top : undefined;
}

/** The commits a shallow clone was cut at (git lists them in its `shallow` file); none in a full clone. */
function shallowCuts(root: string): Set<string> {
  if (git(root, ['rev-parse', '--is-shallow-repository'])?.trim() !== 'true') return new Set();
  const file = git(root, ['rev-parse', '--path-format=absolute', '--git-path', 'shallow'])?.trim();
  if (file === undefined || !existsSync(file)) return new Set();
  return new Set(readFileSync(file, 'utf8').split('\n').filter((c) => c !== ''));
}

export interface ReleaseCommit {
  readonly commit: string;
  /** True when the commit is a shallow clone's cut: an older one may name the version too. */
  readonly atShallowCut: boolean;
}

/** The first commit (oldest first, along first parents and merges alike) whose schema CHANGELOG names the version. */
export function releaseCommit(paths: RepoPaths, version: number): ReleaseCommit | undefined {
  const changelog = toPosix(relative(paths.root, paths.schemaChangelog));
  const commits = (git(paths.root, ['log', '--reverse', '--format=%H', '--', changelog]) ?? '').split('\n').filter((c) => c !== '');
  const shallow = shallowCuts(paths.root);
  for (const commit of commits) {
    const text = git(paths.root, ['show', `${commit}:${changelog}`]);
    if (text !== undefined && mentionsVersion(text, version)) return { commit, atShallowCut: shallow.has(commit) };
  }
  return undefined;
}

export interface BaselineCheck {
  readonly problems: readonly CodegenProblem[];
  /** What the check could not verify, and how to let it (printed; never fails the run). */
  readonly notes: readonly CodegenProblem[];
}

export function releasedBaselineCheck(paths: RepoPaths, released: readonly ReleasedRegistry[]): BaselineCheck {
  if (checkoutTop(paths.root) === undefined) return { problems: [], notes: [] };
  const problems: CodegenProblem[] = [];
  const notes: CodegenProblem[] = [];
  for (const entry of released) {
    const found = releaseCommit(paths, entry.version);
    if (found === undefined) continue;
    const file = toPosix(relative(paths.root, entry.file));
    const short = found.commit.slice(0, 12);
    if (found.atShallowCut) {
      notes.push({
        code: 'baseline_unverifiable',
        message: `${file}: settings version ${entry.version} is released, but this is a shallow clone and the first commit it has that names it (${short}) is the clone's cut, so the release commit may be older: fetch the history (git fetch --unshallow; in CI, actions/checkout with fetch-depth: 0)`,
      });
      continue;
    }
    const atRelease = git(paths.root, ['show', `${found.commit}:${file}`]);
    const now = readFileSync(entry.file, 'utf8');
    if (atRelease === undefined) {
      problems.push({
        code: 'released_copy_edited',
        message: `${file}: settings version ${entry.version} was released by commit ${short} (the first whose packages/schema/CHANGELOG.md names it), which has no ${file}; a released version's frozen copy is the one it shipped with and cannot be added afterwards`,
      });
    } else if (atRelease !== now) {
      problems.push({
        code: 'released_copy_edited',
        message: `${file} differs from its content at commit ${short}, which released settings version ${entry.version} (the first commit whose packages/schema/CHANGELOG.md names it): a released frozen copy is the baseline every later registry is checked against, so it never changes, even with spec/reasons.json edited to match; restore it (git checkout ${short} -- ${file}) and make the change as a new settings version`,
      });
    }
  }
  return { problems, notes };
}
