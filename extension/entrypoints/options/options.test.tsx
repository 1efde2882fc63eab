import { deleteDB } from 'idb';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { button, byLabel, click, description, mount, select, text, type, unmount } from '@/components/dom-testing';
import { App } from '@/entrypoints/options/OptionsApp';
import { setLocale } from '@/lib/i18n/translate';
import { closeDb, db, DB_NAME } from '@/lib/storage/database';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import { getConnection, setConnection } from '@/lib/storage/stored-connection';

const PROXY = 'https://proxy.test';
const TOKEN = `abk_m0123456789abcdef_${'a'.repeat(43)}`;

interface FakeOptions {
  /** Tokens the proxy accepts. */
  tokens?: string[];
  groups?: { Id: string; Name: string; Description?: string; GroupType?: 'AIGC' | 'LivenessFace' }[];
  offline?: boolean;
}

/** A fake proxy behind `fetch`: /proxy/me, /proxy/capabilities and ListAssetGroups (paged). */
function fakeProxy({ tokens = [TOKEN], groups = [], offline = false }: FakeOptions = {}) {
  return vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    if (offline) throw new TypeError('Failed to fetch');
    const url = new URL(String(input));
    const auth = new Headers(init.headers).get('Authorization') ?? '';
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (!tokens.includes(auth.replace(/^Bearer /, ''))) return json(401, { error: { code: 'unauthorized', message: 'A valid member token is required.' } });
    if (url.pathname === '/proxy/me') return json(200, { id: 'm-1', name: 'Ada Lovelace' });
    if (url.pathname === '/proxy/capabilities') return json(200, { models: [] });
    if (url.pathname === '/api/v3' && url.searchParams.get('Action') === 'ListAssetGroups') {
      const body = JSON.parse(String(init.body));
      const start = (body.PageNumber - 1) * body.PageSize;
      const Items = groups.slice(start, start + body.PageSize).map((g) => ({ Description: '', GroupType: 'AIGC', CreateTime: '', UpdateTime: '', ...g }));
      return json(200, { ResponseMetadata: { RequestId: 'r', Action: 'ListAssetGroups' }, Result: { Items, TotalCount: groups.length, PageNumber: body.PageNumber, PageSize: body.PageSize } });
    }
    return json(404, { error: { code: 'not_found', message: 'no route' } });
  });
}

const realFetch = globalThis.fetch;
let permissions: { request: ReturnType<typeof vi.fn>; remove: ReturnType<typeof vi.fn> };
let messages: unknown[];

beforeEach(async () => {
  await closeDb();
  await deleteDB(DB_NAME);
  fakeBrowser.reset();
  permissions = { request: vi.fn(async () => true), remove: vi.fn(async () => true) };
  Object.assign(fakeBrowser.permissions, permissions);
  messages = [];
  fakeBrowser.runtime.onMessage.addListener((message) => {
    messages.push(message);
  });
});

afterEach(() => {
  unmount();
  globalThis.fetch = realFetch;
});

async function openOptions() {
  mount(<App />);
  await vi.waitFor(() => expect(text()).toContain('Connection'));
  await vi.waitFor(() => byLabel('Proxy URL'));
}

function fillIn(url: string, token: string) {
  type(byLabel('Proxy URL'), url);
  type(byLabel('Member token'), token);
}

describe('options page: validation', () => {
  it('names each wrong field next to it and sends nothing', async () => {
    const fetch = (globalThis.fetch = fakeProxy());
    await openOptions();
    fillIn('ark.example.dev', 'sk-123');
    click(button('Connect'));

    const url = byLabel('Proxy URL');
    const token = byLabel('Member token');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(description(url)).toMatch(/^Proxy URL: enter a full address/);
    expect(token.getAttribute('aria-invalid')).toBe('true');
    expect(description(token)).toMatch(/^Member token: this does not look like an Arkbridge member token/);
    expect(document.activeElement).toBe(url);
    expect(permissions.request).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('asks for a token when the field is empty and refuses plain http on another host', async () => {
    globalThis.fetch = fakeProxy();
    await openOptions();
    fillIn('http://ark.example.dev', '');
    click(button('Connect'));
    expect(description(byLabel('Proxy URL'))).toMatch(/^Proxy URL: must start with https:\/\//);
    expect(description(byLabel('Member token'))).toMatch(/^Member token: paste the token/);
  });
});

describe('options page: connect', () => {
  it('requests host access for exactly the proxy origin, from the click itself', async () => {
    globalThis.fetch = fakeProxy();
    await openOptions();
    fillIn('https://proxy.test/some/path', TOKEN);
    click(button('Connect'));
    // Synchronously within the click: the browser only prompts during the user gesture.
    expect(permissions.request).toHaveBeenCalledTimes(1);
    expect(permissions.request).toHaveBeenCalledWith({ origins: ['https://proxy.test/*'] });
    await vi.waitFor(() => expect(text()).toContain('Connected as Ada Lovelace'));
  });

  it('stores the connection, shows the member name, loads every group page and tells the background', async () => {
    const groups = Array.from({ length: 130 }, (_, i) => ({ Id: `g${i}`, Name: `Group ${String(i).padStart(3, '0')}` }));
    const fetch = (globalThis.fetch = fakeProxy({ groups }));
    await openOptions();
    expect(text()).toContain('Not connected');
    fillIn(' https://proxy.test ', `  ${TOKEN} `);
    click(button('Connect'));

    await vi.waitFor(() => expect(text()).toContain('Connected as Ada Lovelace'));
    expect(await getConnection()).toEqual({ proxyUrl: PROXY, token: TOKEN, memberName: 'Ada Lovelace', needsReconnect: false });
    await vi.waitFor(() => expect(messages).toContainEqual({ type: 'arkbridge:connected' }));

    const calls = fetch.mock.calls.map(([input, init]) => ({ url: String(input), init: init as RequestInit }));
    // The groups others share are asked beside the first page (this proxy, from before the team library, answers 404: none).
    expect(calls.map((c) => new URL(c.url).pathname).sort()).toEqual(['/api/v3', '/api/v3', '/proxy/capabilities', '/proxy/me', '/proxy/shared']);
    expect(calls.every((c) => new Headers(c.init.headers).get('Authorization') === `Bearer ${TOKEN}`)).toBe(true);
    const pages = calls.filter((c) => c.url.includes('ListAssetGroups')).map((c) => JSON.parse(String(c.init.body)));
    expect(pages.map((p) => [p.PageNumber, p.PageSize])).toEqual([
      [1, 100],
      [2, 100],
    ]);
    const stored = await (await db()).getAll('groups');
    expect(stored).toHaveLength(130);
    expect(stored.find((g) => g.id === 'g7')).toEqual({ id: 'g7', name: 'Group 007', description: '', type: 'AIGC', usedAt: 0 });
    expect(text()).toContain('130 groups loaded');
    // The default group select now offers them.
    const choice = byLabel<HTMLSelectElement>('Default group');
    expect(choice.options).toHaveLength(131);
  });

  it('on 401 explains that the token was refused and stores nothing', async () => {
    globalThis.fetch = fakeProxy({ tokens: [] });
    await openOptions();
    fillIn(PROXY, TOKEN);
    click(button('Connect'));
    await vi.waitFor(() => expect(text()).toContain('The proxy did not accept this token: check it or ask your admin for a new one'));
    expect(document.querySelector('[role="alert"]')?.textContent).toContain('did not accept this token');
    expect(await getConnection()).toBeNull();
    expect(messages).toEqual([]);
    expect(text()).toContain('Not connected');
  });

  it('when the proxy cannot be reached, says which address failed', async () => {
    globalThis.fetch = fakeProxy({ offline: true });
    await openOptions();
    fillIn(PROXY, TOKEN);
    click(button('Connect'));
    await vi.waitFor(() => expect(text()).toContain('Cannot reach https://proxy.test: check the address and that the proxy is running'));
    expect(await getConnection()).toBeNull();
  });

  it('still connects when host access is declined, with a note on CORS and granting it later', async () => {
    permissions.request.mockResolvedValue(false);
    globalThis.fetch = fakeProxy();
    await openOptions();
    fillIn(PROXY, TOKEN);
    click(button('Connect'));
    await vi.waitFor(() => expect(text()).toContain('Connected as Ada Lovelace'));
    expect(text()).toMatch(/not given access to https:\/\/proxy\.test\/\*.*CORS.*grant access later/);
    expect((await getConnection())?.memberName).toBe('Ada Lovelace');
    // The connect ends by telling the background, after the groups load: let it end here, or the
    // message lands in the next test's list on a loaded machine.
    await vi.waitFor(() => expect(messages).toContainEqual({ type: 'arkbridge:connected' }));
  });

  it('"Test connection" shows the member name without storing anything', async () => {
    globalThis.fetch = fakeProxy();
    await openOptions();
    fillIn(PROXY, TOKEN);
    click(button('Test connection'));
    await vi.waitFor(() => expect(text()).toContain('it belongs to Ada Lovelace'));
    expect(await getConnection()).toBeNull();
    expect(messages).toEqual([]);
  });

  it('says when the address answers but is not an Arkbridge proxy', async () => {
    globalThis.fetch = vi.fn(async () => new Response('<html>hello</html>', { status: 200 }));
    await openOptions();
    fillIn(PROXY, TOKEN);
    click(button('Connect'));
    await vi.waitFor(() => expect(text()).toContain('answered, but not like an Arkbridge proxy'));
    expect(await getConnection()).toBeNull();
  });

  it('shows and hides the token', async () => {
    await openOptions();
    const token = byLabel('Member token');
    expect(token.type).toBe('password');
    click(button('Show member token'));
    expect(token.type).toBe('text');
    click(button('Hide member token'));
    expect(token.type).toBe('password');
  });
});

describe('options page: connect link', () => {
  const LINK = `${PROXY}/connect#token=${encodeURIComponent(TOKEN)}`;

  /** A paste into `control`, as the browser reports it (an input event of type insertFromPaste). */
  function paste(control: HTMLInputElement, value: string) {
    act(() => {
      control.value = value;
      control.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste', data: value }));
    });
  }

  it('a pasted link fills in the proxy URL and the token, then Connect runs as usual', async () => {
    globalThis.fetch = fakeProxy();
    await openOptions();
    type(byLabel('Proxy URL'), 'https://old.example.dev');
    paste(byLabel('Connect link'), ` ${LINK} `);
    expect(byLabel('Proxy URL').value).toBe(PROXY);
    expect(byLabel('Member token').value).toBe(TOKEN);
    // The link holds the token: it does not stay in plain sight.
    expect(byLabel('Connect link').value).toBe('');
    expect(document.querySelector('#link-note')?.textContent).toContain('Filled in from the connect link: proxy https://proxy.test');

    click(button('Connect'));
    expect(permissions.request).toHaveBeenCalledWith({ origins: ['https://proxy.test/*'] });
    await vi.waitFor(() => expect(text()).toContain('Connected as Ada Lovelace'));
    expect(await getConnection()).toEqual({ proxyUrl: PROXY, token: TOKEN, memberName: 'Ada Lovelace', needsReconnect: false });
  });

  it('a link pasted into the token field is read as one', async () => {
    globalThis.fetch = fakeProxy();
    await openOptions();
    paste(byLabel('Member token'), LINK);
    expect(byLabel('Member token').value).toBe(TOKEN);
    expect(byLabel('Proxy URL').value).toBe(PROXY);
    click(button('Test connection'));
    await vi.waitFor(() => expect(text()).toContain('it belongs to Ada Lovelace'));
  });

  it('explains a malformed link in its field, and Connect sends nothing', async () => {
    const fetch = (globalThis.fetch = fakeProxy());
    await openOptions();
    const link = byLabel('Connect link');
    paste(link, `${PROXY}/connect#token=sk-123`);
    expect(link.getAttribute('aria-invalid')).toBe('true');
    expect(description(link)).toMatch(/^Connect link: the token in it does not look like an Arkbridge member token/);
    expect(byLabel('Member token').value).toBe('');

    type(link, 'http://ark.example.dev/connect#token=x');
    expect(description(link)).toMatch(/^Connect link: must start with https:\/\//);
    click(button('Connect'));
    expect(document.activeElement).toBe(link);
    expect(permissions.request).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();

    // Mended, the error goes and the fields are filled.
    type(link, LINK);
    expect(link.getAttribute('aria-invalid')).toBeNull();
    expect(byLabel('Member token').value).toBe(TOKEN);
  });

  it('typing is judged when leaving the field or on Connect, not at every key', async () => {
    await openOptions();
    const link = byLabel('Connect link');
    type(link, 'https://proxy.te');
    expect(link.getAttribute('aria-invalid')).toBeNull();
    act(() => {
      link.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(description(link)).toMatch(/^Connect link: there is no member token after #token=/);
  });
});

describe('options page: stored state', () => {
  const group = (over: Partial<GroupRecord> & { id: string }): GroupRecord => ({ name: over.id, description: '', type: 'AIGC', usedAt: 0, ...over });

  it('shows who is connected and prefills the fields', async () => {
    await setConnection({ proxyUrl: PROXY, token: TOKEN, memberName: 'Grace', needsReconnect: false });
    await openOptions();
    expect(text()).toContain('Connected as Grace to https://proxy.test');
    expect(byLabel('Proxy URL').value).toBe(PROXY);
    expect(byLabel('Member token').value).toBe(TOKEN);
  });

  it('asks to reconnect when the stored token was refused', async () => {
    globalThis.fetch = fakeProxy();
    await setConnection({ proxyUrl: PROXY, token: TOKEN, memberName: 'Grace', needsReconnect: true });
    await openOptions();
    expect(text()).toContain('Needs reconnect');
    expect(button('Refresh groups').disabled).toBe(true);
  });

  it('saves the default group (virtual groups only) and tells the background', async () => {
    await setConnection({ proxyUrl: PROXY, token: TOKEN, memberName: 'Grace' });
    const database = await db();
    await database.put('groups', group({ id: 'g1', name: 'Heroes' }));
    await database.put('groups', group({ id: 'g2', name: 'Backdrops' }));
    await database.put('groups', group({ id: 'face', name: 'Me', type: 'LivenessFace' }));
    await openOptions();
    const choice = byLabel<HTMLSelectElement>('Default group');
    expect([...choice.options].map((o) => o.textContent)).toEqual([expect.stringMatching(/^Automatic/), 'Backdrops', 'Heroes']);
    select(choice, 'g1');
    await vi.waitFor(async () => expect(await database.get('settings', 'defaultGroupId')).toBe('g1'));
    await vi.waitFor(() => expect(messages).toContainEqual({ type: 'arkbridge:groups-changed' }));
    select(choice, '');
    await vi.waitFor(async () => expect(await database.get('settings', 'defaultGroupId')).toBeUndefined());
  });

  it('"Refresh groups" keeps usedAt, drops groups the proxy no longer lists and a default among them', async () => {
    await setConnection({ proxyUrl: PROXY, token: TOKEN, memberName: 'Grace' });
    const database = await db();
    await database.put('groups', group({ id: 'g1', name: 'Old name', usedAt: 42 }));
    await database.put('groups', group({ id: 'gone', usedAt: 7 }));
    await database.put('settings', 'gone', 'defaultGroupId');
    globalThis.fetch = fakeProxy({ groups: [{ Id: 'g1', Name: 'Heroes', Description: 'capes' }, { Id: 'g2', Name: 'New' }] });
    await openOptions();
    click(button('Refresh groups'));
    await vi.waitFor(() => expect(text()).toContain('2 groups loaded'));
    expect((await database.getAll('groups')).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'g1', name: 'Heroes', description: 'capes', type: 'AIGC', usedAt: 42 },
      { id: 'g2', name: 'New', description: '', type: 'AIGC', usedAt: 0 },
    ]);
    expect(await database.get('settings', 'defaultGroupId')).toBeUndefined();
    await vi.waitFor(() => expect(messages).toContainEqual({ type: 'arkbridge:groups-changed' }));
  });

  it('"Refresh groups" answered 401 marks the connection as needing a reconnect', async () => {
    await setConnection({ proxyUrl: PROXY, token: TOKEN, memberName: 'Grace' });
    globalThis.fetch = fakeProxy({ tokens: [] });
    await openOptions();
    click(button('Refresh groups'));
    await vi.waitFor(() => expect(text()).toContain('Needs reconnect'));
    expect((await getConnection())?.needsReconnect).toBe(true);
  });

  it('"Disconnect" removes the token, gives back host access and tells the background', async () => {
    globalThis.fetch = fakeProxy();
    await setConnection({ proxyUrl: PROXY, token: TOKEN, memberName: 'Grace' });
    await openOptions();
    click(button('Disconnect'));
    await vi.waitFor(() => expect(text()).toContain('Not connected'));
    expect(await getConnection()).toBeNull();
    expect(byLabel('Member token').value).toBe('');
    expect(byLabel('Proxy URL').value).toBe(PROXY);
    await vi.waitFor(() => expect(permissions.remove).toHaveBeenCalledWith({ origins: ['https://proxy.test/*'] }));
    await vi.waitFor(() => expect(messages).toContainEqual({ type: 'arkbridge:disconnected' }));
  });
});

describe('options page: Simplified Chinese', () => {
  afterEach(() => setLocale('en'));

  it('speaks Chinese when the browser does, field errors and group count included', async () => {
    await setLocale('zh-CN');
    await setConnection({ proxyUrl: PROXY, token: TOKEN, memberName: 'Grace' });
    globalThis.fetch = fakeProxy({ groups: [{ Id: 'g1', Name: 'Heroes' }] });
    mount(<App />);
    await vi.waitFor(() => byLabel('代理服务地址'));
    expect(document.querySelector('h1')?.textContent).toBe('Arkbridge 设置');
    expect(text()).toContain('已以 Grace 的身份连接到 https://proxy.test。');
    expect(document.querySelector('strong')?.textContent).toBe('Grace');
    expect(byLabel('成员令牌').value).toBe(TOKEN);
    expect(button('显示成员令牌')).toBeDefined();
    expect(button('测试连接')).toBeDefined();
    expect(description(byLabel('连接链接'))).toContain('粘贴到这里');
    expect(button('断开连接')).toBeDefined();
    expect(byLabel<HTMLSelectElement>('默认分组').options[0]!.textContent).toMatch(/^自动：/);

    click(button('刷新分组'));
    await vi.waitFor(() => expect(text()).toContain('已加载 1 个分组。'));

    type(byLabel('代理服务地址'), 'ark.example.dev');
    type(byLabel('成员令牌'), '');
    click(button('连接'));
    expect(description(byLabel('代理服务地址'))).toMatch(/^代理服务地址：请输入完整地址/);
    expect(description(byLabel('成员令牌'))).toMatch(/^成员令牌：请粘贴/);

    type(byLabel('连接链接'), 'https://proxy.test/connect');
    click(button('连接'));
    expect(description(byLabel('连接链接'))).toMatch(/^连接链接：#token= 之后没有成员令牌/);
  });
});
