// What the gateway's store holds for an upstream's OAuth login, read from the SQLite file itself (a
// second, read-only connection: the tests look, the gateway writes).
import Database from 'better-sqlite3';

export interface StoredLogin {
  readonly access_token?: string;
  readonly refresh_token?: string;
  readonly client_id?: string;
  readonly tokens_expire_at?: number;
  readonly pending: boolean;
}

export function readStoredLogin(storePath: string, server: string): StoredLogin | undefined {
  const db = new Database(storePath, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT client, tokens, tokens_expire_at, pending FROM upstream_oauth WHERE server = ?').get(server) as
      | { client: string | null; tokens: string | null; tokens_expire_at: number | null; pending: string | null }
      | undefined;
    if (row === undefined) return undefined;
    const tokens = row.tokens === null ? {} : (JSON.parse(row.tokens) as { access_token?: string; refresh_token?: string });
    const client = row.client === null ? {} : (JSON.parse(row.client) as { client_id?: string });
    return {
      ...(tokens.access_token === undefined ? {} : { access_token: tokens.access_token }),
      ...(tokens.refresh_token === undefined ? {} : { refresh_token: tokens.refresh_token }),
      ...(client.client_id === undefined ? {} : { client_id: client.client_id }),
      ...(row.tokens_expire_at === null ? {} : { tokens_expire_at: row.tokens_expire_at }),
      pending: row.pending !== null,
    };
  } finally {
    db.close();
  }
}

/** Every activity record as the store holds it, as one text (for looking for what must not be there). */
export function activityLogText(storePath: string): string {
  const db = new Database(storePath, { readonly: true, fileMustExist: true });
  try {
    return JSON.stringify(db.prepare('SELECT * FROM activity_log').all());
  } finally {
    db.close();
  }
}
