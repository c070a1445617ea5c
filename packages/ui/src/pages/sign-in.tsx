import { useState } from 'preact/hooks';
import { GatewayClient, GatewayError } from '../api/gateway-client.js';

/**
 * The admin API key, checked against an operator-only endpoint before it is kept: a wrong key is
 * 401, and an agent token is refused too (it is not the admin key), so agent tokens get no UI.
 */
export function SignIn({ notice, onSignedIn }: { notice: string | undefined; onSignedIn: (key: string) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    // The form never submits itself: the key must not become part of a URL.
    event.preventDefault();
    const candidate = key.trim();
    if (candidate === '') {
      setError('Enter the admin API key.');
      return;
    }
    setBusy(true);
    try {
      await new GatewayClient(candidate).tokens();
      onSignedIn(candidate);
    } catch (cause) {
      setError(refusal(cause));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>mcpproxy operator</h1>
      <p>
        Sign in with the gateway's admin API key: <code>mcpproxy serve</code> prints it when it generates one, and keeps it in <code>api-key</code> in its data
        directory. The key stays in this tab only.
      </p>
      {notice === undefined ? null : <p role="status">{notice}</p>}
      <form method="post" onSubmit={submit} noValidate>
        <label for="admin-key">Admin API key</label>
        <input id="admin-key" name="admin-key" type="password" autoComplete="off" spellcheck={false} value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} aria-describedby={error === undefined ? undefined : 'sign-in-error'} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      {error === undefined ? null : (
        <p id="sign-in-error" class="error" role="alert">
          {error}
        </p>
      )}
    </main>
  );
}

function refusal(cause: unknown): string {
  if (cause instanceof GatewayError && cause.status === 401) return 'The gateway refused this key: it is not the admin API key. Agent tokens cannot sign in to the operator UI.';
  if (cause instanceof GatewayError && cause.status === 403) return 'This credential is an agent token: the operator UI needs the admin API key.';
  return `The gateway could not be reached: ${cause instanceof Error ? cause.message : String(cause)}`;
}
