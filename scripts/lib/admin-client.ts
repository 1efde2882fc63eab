import type { MemberProfile } from '../../shared';

/** A small client of the proxy's admin API (docs/proxy-api.md, "Admin"). */

export type MemberSummary = MemberProfile;

export class AdminClient {
  constructor(
    readonly proxyUrl: string,
    private readonly adminToken: string,
  ) {}

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(new URL(path, this.proxyUrl), {
        method,
        headers: { Authorization: `Bearer ${this.adminToken}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new Error(`Cannot reach the proxy at ${this.proxyUrl}. Is it running (npm start / npm run proxy)?`);
    }
    const text = await response.text();
    if (!response.ok) {
      const message = (() => {
        try {
          return JSON.parse(text).error?.message as string;
        } catch {
          return text.slice(0, 200);
        }
      })();
      throw new Error(`${method} ${path}: HTTP ${response.status}${message ? `: ${message}` : ''}`);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  add = (name: string) => this.#call<{ id: string; name: string; token: string }>('POST', '/admin/members', { name });
  list = async () => (await this.#call<{ members: MemberSummary[] }>('GET', '/admin/members')).members;
  revoke = (id: string) => this.#call<void>('DELETE', `/admin/members/${encodeURIComponent(id)}`);
  rotate = (id: string) => this.#call<{ id: string; token: string }>('POST', `/admin/members/${encodeURIComponent(id)}/token`);
}
