import type { RestPreflightResponse, TokenInfo } from '@mcpproxy/schema';
import { useEffect, useState } from 'preact/hooks';
import type { GatewayClient } from '../api/gateway-client.js';

/** Tool IDs as pasted: one per line, or separated by spaces or commas (an ID holds none of them). */
export function pastedIds(text: string): string[] {
  return text.split(/[\s,]+/).filter((id) => id !== '');
}

/**
 * A preflight from the operator's desk: at the operator tier, or as an agent token (chosen by its
 * name, since the gateway keeps only hashes of secrets) would see it.
 */
export function PreflightPage({ client }: { client: GatewayClient }) {
  const [ids, setIds] = useState('');
  const [asToken, setAsToken] = useState('');
  const [tokens, setTokens] = useState<readonly TokenInfo[]>([]);
  const [policy, setPolicy] = useState({ read_only_only: false, exclude_destructive: false, exclude_open_world: false });
  const [answer, setAnswer] = useState<RestPreflightResponse | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    client.tokens().then((list) => setTokens(list.filter((token) => !token.revoked)), () => setTokens([]));
  }, [client]);

  const submit = async (event: Event) => {
    event.preventDefault();
    const [first, ...rest] = pastedIds(ids);
    if (first === undefined) {
      setError('Paste at least one tool ID (server:tool).');
      return;
    }
    const chosen = Object.fromEntries(Object.entries(policy).filter(([, on]) => on));
    try {
      setAnswer(await client.preflight({ tools: [{ id: first }, ...rest.map((id) => ({ id }))], ...(Object.keys(chosen).length === 0 ? {} : { policy: chosen }) }, asToken === '' ? undefined : asToken));
      setError(undefined);
    } catch (cause) {
      setAnswer(undefined);
      setError(cause instanceof Error ? cause.message : String(cause));
    }
  };

  return (
    <>
      <form class="stack" onSubmit={submit} noValidate>
        <label for="preflight-ids">Tool IDs (server:tool, one per line or separated by spaces or commas)</label>
        <textarea id="preflight-ids" rows={4} value={ids} onInput={(e) => setIds((e.target as HTMLTextAreaElement).value)} />
        <label for="preflight-as">Evaluate as</label>
        <select id="preflight-as" value={asToken} onChange={(e) => setAsToken((e.target as HTMLSelectElement).value)}>
          <option value="">the operator (every reason, hashes)</option>
          {tokens.map((token) => (
            <option key={token.name} value={token.name}>
              agent token {token.name} ({token.allowed_servers.join(', ')})
            </option>
          ))}
        </select>
        <fieldset>
          <legend>Annotation policy</legend>
          {(['read_only_only', 'exclude_destructive', 'exclude_open_world'] as const).map((name) => (
            <label key={name} class="check">
              <input type="checkbox" checked={policy[name]} onChange={(e) => setPolicy({ ...policy, [name]: (e.target as HTMLInputElement).checked })} />
              {name.replaceAll('_', ' ')}
            </label>
          ))}
        </fieldset>
        <button type="submit" class="primary">
          Run preflight
        </button>
      </form>
      {error === undefined ? null : (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {answer === undefined ? null : <Verdicts answer={answer} />}
    </>
  );
}

function Verdicts({ answer }: { answer: RestPreflightResponse }) {
  return (
    <section aria-labelledby="verdict-title">
      <h2 id="verdict-title">
        Verdict: <span class={`badge verdict-${answer.verdict}`} data-field="verdict">{answer.verdict}</span>
      </h2>
      <p class="muted">
        Request ID <code data-field="request-id">{answer.request_id}</code>, checked at {answer.checked_at}
      </p>
      <div class="scroll" tabIndex={0} role="region" aria-label="Verdict table">
        <table>
          <caption>One verdict per tool, in the order asked</caption>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Status</th>
              <th scope="col">Reason</th>
              <th scope="col">Retryable</th>
              <th scope="col">Action</th>
              <th scope="col">Detail</th>
              <th scope="col">Remediation</th>
              <th scope="col">Did you mean</th>
            </tr>
          </thead>
          <tbody>
            {answer.tools.map((tool, i) => (
              <tr key={i} data-tool={tool.id}>
                <th scope="row">{tool.id}</th>
                <td data-field="status">{tool.status}</td>
                <td data-field="reason">{'reason' in tool ? tool.reason : '—'}</td>
                <td>{'retryable' in tool && tool.retryable !== undefined ? String(tool.retryable) : '—'}</td>
                <td data-field="action">{'action' in tool && tool.action !== undefined ? tool.action : '—'}</td>
                <td class="wrap">{'detail' in tool ? tool.detail : ''}</td>
                <td class="wrap">{'remediation' in tool ? <code>{tool.remediation}</code> : ''}</td>
                <td data-field="did-you-mean">{'did_you_mean' in tool && tool.did_you_mean !== undefined ? tool.did_you_mean.join(', ') : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
