import type { ActivityRecord, ServerInfo } from '@mcpproxy/schema';
import { useEffect, useState } from 'preact/hooks';
import type { ActivityFilter, GatewayClient } from '../api/gateway-client.js';

/**
 * The activity log, newest first: filter by type, server and verdict, or find the records of one
 * request ID (the one a failed CI job printed).
 */
export function ActivityPage({ client, servers }: { client: GatewayClient; servers: readonly ServerInfo[] }) {
  const [draft, setDraft] = useState<ActivityFilter>({});
  const [filter, setFilter] = useState<ActivityFilter>({});
  const [records, setRecords] = useState<readonly ActivityRecord[] | undefined>(undefined);
  const [next, setNext] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  const load = async (query: ActivityFilter, append: boolean) => {
    try {
      const page = await client.activity(query);
      setRecords((before) => (append ? [...(before ?? []), ...page.records] : page.records));
      setNext(page.next_cursor);
      setError(undefined);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    }
  };
  useEffect(() => {
    void load(filter, false);
  }, [client, filter]);

  const field = (name: keyof ActivityFilter) => (event: Event) => setDraft({ ...draft, [name]: (event.target as HTMLInputElement | HTMLSelectElement).value.trim() });
  return (
    <>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setFilter({ ...draft });
        }}
        noValidate
      >
        <label>
          Type
          <select value={draft.type ?? ''} onChange={field('type')}>
            <option value="">any</option>
            <option value="preflight">preflight</option>
            <option value="tool_call">tool call</option>
          </select>
        </label>
        <label>
          Server
          <select value={draft.server ?? ''} onChange={field('server')}>
            <option value="">any</option>
            {servers.map((server) => (
              <option key={server.name} value={server.name}>
                {server.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Verdict
          <select value={draft.verdict ?? ''} onChange={field('verdict')}>
            <option value="">any</option>
            {['ready', 'degraded_retryable', 'blocked', 'unknown_ids'].map((verdict) => (
              <option key={verdict} value={verdict}>
                {verdict}
              </option>
            ))}
          </select>
        </label>
        <label>
          Request ID
          <input type="search" value={draft.request_id ?? ''} onInput={field('request_id')} spellcheck={false} />
        </label>
        <button type="submit" class="primary">
          Search
        </button>
      </form>
      {error === undefined ? null : (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {records === undefined ? null : (
        <div class="scroll" tabIndex={0} role="region" aria-label="Activity table">
          <table>
            <caption>{records.length === 0 ? 'No records match' : `${records.length} records, newest first`}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Type</th>
                <th scope="col">Surface</th>
                <th scope="col">Status</th>
                <th scope="col">Request ID</th>
                <th scope="col">Summary</th>
              </tr>
            </thead>
            <tbody>
              {records.map((record) => (
                <tr key={`${record.id ?? ''}-${record.request_id}`} data-request-id={record.request_id}>
                  <td>{record.timestamp}</td>
                  <td>{record.type}</td>
                  <td>{'surface' in record ? record.surface : '—'}</td>
                  <td>{record.status}</td>
                  <td>
                    <code>{record.request_id}</code>
                  </td>
                  <td class="wrap">{summary(record)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next === undefined ? null : (
        <button type="button" onClick={() => void load({ ...filter, cursor: next }, true)}>
          Older records
        </button>
      )}
    </>
  );
}

function summary(record: ActivityRecord): string {
  const metadata = record.metadata as unknown as Record<string, unknown>;
  if (record.type === 'preflight') {
    const perTool = (metadata['per_tool'] as { id: string; status: string; reason?: string }[] | undefined) ?? [];
    return `${String(metadata['verdict'])}: ${perTool.map((tool) => `${tool.id} ${tool.reason ?? tool.status}`).join(', ')}`;
  }
  return `${String(metadata['server'])}:${String(metadata['tool'])} ${String(metadata['outcome'])}${metadata['reason'] === undefined ? '' : ` (${String(metadata['reason'])})`}`;
}
