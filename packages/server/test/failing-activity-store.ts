// A Store that fails on purpose: every method is the real SQLite store's, except that writing an
// activity record throws while `failing` is on (file permissions cannot simulate this: root
// writes anyway). Injected through the Store interface, not mocked.
import type {
  ActivityInput,
  AppendedActivity,
  ActivityQuery,
  ActivityRetention,
  CreateTokenResult,
  KnownServer,
  NewAgentToken,
  ServerOverride,
  Store,
  StoredActivity,
  StoredAgentToken,
  StoredApproval,
  UpstreamOAuthRecord,
} from '../src/store/store.js';

export class FailingActivityStore implements Store {
  failing = false;
  /** Activity writes that were refused. */
  refused = 0;

  constructor(private readonly inner: Store) {}

  get dataDir(): string {
    return this.inner.dataDir;
  }

  appendActivity(record: ActivityInput): Promise<AppendedActivity> {
    if (this.failing) {
      this.refused += 1;
      return Promise.reject(new Error('activity log unavailable (injected failure)'));
    }
    return this.inner.appendActivity(record);
  }

  listApprovals(): Promise<StoredApproval[]> {
    return this.inner.listApprovals();
  }
  saveApprovals(records: readonly StoredApproval[]): Promise<void> {
    return this.inner.saveApprovals(records);
  }
  getApprovedDefinition(server: string, tool: string): Promise<string | undefined> {
    return this.inner.getApprovedDefinition(server, tool);
  }
  listServerOverrides(): Promise<Map<string, ServerOverride>> {
    return this.inner.listServerOverrides();
  }
  setServerOverride(server: string, override: ServerOverride): Promise<void> {
    return this.inner.setServerOverride(server, override);
  }
  listKnownServers(): Promise<Map<string, KnownServer>> {
    return this.inner.listKnownServers();
  }
  markServersKnown(servers: readonly string[]): Promise<void> {
    return this.inner.markServersKnown(servers);
  }
  markBaselineApproved(server: string): Promise<void> {
    return this.inner.markBaselineApproved(server);
  }
  createAgentToken(token: NewAgentToken): Promise<CreateTokenResult> {
    return this.inner.createAgentToken(token);
  }
  listAgentTokens(): Promise<StoredAgentToken[]> {
    return this.inner.listAgentTokens();
  }
  findAgentTokenBySha256(tokenSha256: string): Promise<StoredAgentToken | undefined> {
    return this.inner.findAgentTokenBySha256(tokenSha256);
  }
  revokeAgentToken(name: string): Promise<boolean> {
    return this.inner.revokeAgentToken(name);
  }
  getUpstreamCredential(server: string): Promise<string | undefined> {
    return this.inner.getUpstreamCredential(server);
  }
  setUpstreamCredential(server: string, bearerToken: string): Promise<void> {
    return this.inner.setUpstreamCredential(server, bearerToken);
  }
  deleteUpstreamCredential(server: string): Promise<boolean> {
    return this.inner.deleteUpstreamCredential(server);
  }
  getUpstreamOAuth(server: string): Promise<UpstreamOAuthRecord | undefined> {
    return this.inner.getUpstreamOAuth(server);
  }
  setUpstreamOAuth(server: string, record: UpstreamOAuthRecord): Promise<void> {
    return this.inner.setUpstreamOAuth(server, record);
  }
  queryActivity(query: ActivityQuery): Promise<StoredActivity[]> {
    return this.inner.queryActivity(query);
  }
  pruneActivity(retention: ActivityRetention, now?: Date): Promise<number> {
    return this.inner.pruneActivity(retention, now);
  }
  close(): void {
    this.inner.close();
  }
}
