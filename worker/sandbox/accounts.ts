import * as v from 'valibot';

/** An account of the sandbox service, with both of its credentials. */
export interface Account {
  name: string;
  accessKeyId: string;
  secretAccessKey: string;
  apiKey: string;
}

/** The default accounts; public by design (the sandbox holds no real data), listed in the README. */
export const DEFAULT_ACCOUNTS: readonly Account[] = [
  { name: 'dev', accessKeyId: 'AKSANDBOXDEV', secretAccessKey: 'sandbox-dev-secret-key', apiKey: 'sk-sandbox-dev' },
  { name: 'other', accessKeyId: 'AKSANDBOXOTHER', secretAccessKey: 'sandbox-other-secret-key', apiKey: 'sk-sandbox-other' },
];

const accountSchema = v.strictObject({
  name: v.pipe(v.string(), v.nonEmpty()),
  accessKeyId: v.pipe(v.string(), v.nonEmpty()),
  secretAccessKey: v.pipe(v.string(), v.nonEmpty()),
  apiKey: v.pipe(v.string(), v.startsWith('sk-', 'apiKey must begin with sk-')),
});
const accountsSchema = v.pipe(v.array(accountSchema), v.minLength(1, 'at least one account is required'));

export interface AccountBook {
  byAccessKey(id: string): Account | undefined;
  byApiKey(key: string): Account | undefined;
  byName(name: string): Account | undefined;
}

const cache = new Map<string, AccountBook>();

/** The accounts of `SANDBOX_ACCOUNTS` (parsed once per distinct value), else the defaults. */
export function accountBook(raw: string | undefined): AccountBook {
  const key = raw ?? '';
  let book = cache.get(key);
  if (!book) {
    const list = raw ? parseAccounts(raw) : DEFAULT_ACCOUNTS;
    const byAccess = new Map(list.map((a) => [a.accessKeyId, a]));
    const byApi = new Map(list.map((a) => [a.apiKey, a]));
    const byName = new Map(list.map((a) => [a.name, a]));
    book = { byAccessKey: (id) => byAccess.get(id), byApiKey: (k) => byApi.get(k), byName: (n) => byName.get(n) };
    cache.set(key, book);
  }
  return book;
}

function parseAccounts(raw: string): Account[] {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('SANDBOX_ACCOUNTS is not valid JSON');
  }
  const result = v.safeParse(accountsSchema, json);
  if (!result.success) {
    const issue = result.issues[0];
    throw new Error(`SANDBOX_ACCOUNTS is invalid: ${v.getDotPath(issue) ?? ''} ${issue.message}`.trim());
  }
  return result.output;
}
