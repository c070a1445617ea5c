import type { StandardSchemaV1 } from '@modelcontextprotocol/client';

/** A result schema (Standard Schema v1) that accepts any object: the lenient validators judge it. */
export const ANY_RESULT: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'mcpproxy',
    validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
  },
};
