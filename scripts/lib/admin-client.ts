import type {
  AccessKeyInfo,
  AuditEntry,
  BudgetState,
  MemberBudgetChange,
  MemberBudgetState,
  MemberProfile,
  MemberScope,
  MemberScopeChange,
  PriceTable,
  TeamBudgetChange,
  TeamTask,
  UsageRow,
} from '../../shared';

/** A small client of the proxy's admin API (docs/proxy-api.md, "Admin" and "Budgets and reports"). */

export type MemberSummary = MemberProfile;

/** `GET /admin/usage`: one row per day, member and model; amounts in `currency`. */
export interface UsageReport {
  currency: string;
  from: string;
  to: string;
  rows: UsageRow[];
}

/** `GET /admin/prices`: the team's table at the top level, and whether it is still the default shipped with the catalog (PUT takes it back as is). */
export type PriceTableState = PriceTable & {
  unit: NonNullable<PriceTable['unit']>;
  isDefault: boolean;
  updatedAt: string | null;
};

export interface UsageQuery {
  from?: string | undefined;
  to?: string | undefined;
}

export interface TaskQuery {
  member?: string | undefined;
  status?: string | undefined;
  limit?: number | undefined;
}

/** `?a=1&b=2` of the values given, or '' when none is. */
function search(params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, String(value));
  const text = query.toString();
  return text ? `?${text}` : '';
}

export class AdminClient {
  constructor(
    readonly proxyUrl: string,
    private readonly adminToken: string,
  ) {}

  /** The answer's text; a readable Error for an unreachable proxy or an HTTP error. */
  async #text(method: string, path: string, body?: unknown): Promise<string> {
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
          const error = JSON.parse(text).error as { message?: string; param?: string } | undefined;
          if (!error?.message) return '';
          // 400 invalid_parameter names the field; say it when the message does not.
          return error.param && !error.message.includes(error.param) ? `${error.param}: ${error.message}` : error.message;
        } catch {
          return text.slice(0, 200);
        }
      })();
      throw new Error(`${method} ${path}: HTTP ${response.status}${message ? `: ${message}` : ''}`);
    }
    return text;
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const text = await this.#text(method, path, body);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  add = (name: string, email?: string) => this.#call<{ id: string; name: string; token: string }>('POST', '/admin/members', email === undefined ? { name } : { name, email });
  list = async () => (await this.#call<{ members: MemberSummary[] }>('GET', '/admin/members')).members;
  revoke = (id: string) => this.#call<void>('DELETE', `/admin/members/${encodeURIComponent(id)}`);
  rotate = (id: string) => this.#call<{ id: string; token: string }>('POST', `/admin/members/${encodeURIComponent(id)}/token`);
  // Identity (docs/identity.md): a field of a scope left out keeps its value.
  setScope = (id: string, change: MemberScopeChange) => this.#call<MemberScope>('PUT', `/admin/members/${encodeURIComponent(id)}/scope`, change);
  accessKeys = async (id: string) => (await this.#call<{ keys: AccessKeyInfo[] }>('GET', `/admin/members/${encodeURIComponent(id)}/access-keys`)).keys;
  revokeAccessKey = (id: string, keyId: string) => this.#call<void>('DELETE', `/admin/members/${encodeURIComponent(id)}/access-keys/${encodeURIComponent(keyId)}`);
  setEmail = (id: string, email: string | null) => this.#call<MemberSummary>('PUT', `/admin/members/${encodeURIComponent(id)}/email`, { email });

  // Budgets: fields left out of a change keep their value; null removes a limit.
  memberBudget = (id: string) => this.#call<MemberBudgetState>('GET', `/admin/members/${encodeURIComponent(id)}/budget`);
  setMemberBudget = (id: string, change: MemberBudgetChange) => this.#call<MemberBudgetState>('PUT', `/admin/members/${encodeURIComponent(id)}/budget`, change);
  teamBudget = () => this.#call<BudgetState>('GET', '/admin/budget');
  setTeamBudget = (change: TeamBudgetChange) => this.#call<BudgetState>('PUT', '/admin/budget', change);

  // Reports. Without dates, usage covers this month (UTC) so far.
  usage = (query: UsageQuery = {}) => this.#call<UsageReport>('GET', `/admin/usage${search({ from: query.from, to: query.to })}`);
  /** The same report as the proxy's CSV (RFC 4180, CRLF, a header line), as is. */
  usageCsv = (query: UsageQuery = {}) => this.#text('GET', `/admin/usage${search({ from: query.from, to: query.to, format: 'csv' })}`);
  tasks = async (query: TaskQuery = {}) => (await this.#call<{ tasks: TeamTask[] }>('GET', `/admin/tasks${search({ member: query.member, status: query.status, limit: query.limit })}`)).tasks;
  audit = async (limit?: number) => (await this.#call<{ entries: AuditEntry[] }>('GET', `/admin/audit${search({ limit })}`)).entries;

  // Prices.
  prices = () => this.#call<PriceTableState>('GET', '/admin/prices');
  setPrices = (table: PriceTable) => this.#call<PriceTableState>('PUT', '/admin/prices', table);
  /** Back to the default table shipped with the catalog. */
  resetPrices = () => this.#call<PriceTableState>('DELETE', '/admin/prices');
}
