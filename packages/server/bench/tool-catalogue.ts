// Synthetic but realistic tool definitions for the benchmarks: a description of a few sentences,
// an input schema with several typed properties, annotations. Deterministic per (server, index).
export interface CatalogueTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations: Record<string, boolean>;
}

export function catalogue(prefix: string, count: number): CatalogueTool[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `${prefix}_${String(i).padStart(4, '0')}`,
    description:
      `Tool ${i} of ${prefix}: looks up records matching a query and returns a page of results. ` +
      'Use the filters to narrow the search; results are sorted by relevance unless sort is given.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Free-text query' },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        sort: { type: 'string', enum: ['relevance', 'newest', 'oldest'] },
        filters: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: i % 3 !== 0, openWorldHint: i % 2 === 0 },
  }));
}
