// One output of codegen: a path relative to the repository root and its exact text.
export interface GeneratedFile {
  readonly path: string;
  readonly content: string;
}

/** Folders codegen owns entirely: a file in them that codegen did not produce is stale. */
export const OWNED_DIRECTORIES = ['packages/schema/src/generated', 'packages/schema/fixtures'] as const;
