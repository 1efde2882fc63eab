import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { button, byLabel, click, description, mount, text, type, unmount } from '@/components/dom-testing';
import { NewGroup } from '@/entrypoints/newgroup/NewGroup';
import { parseItem, type PendingItem } from '@/entrypoints/newgroup/new-group-page';
import { setLocale } from '@/lib/i18n/translate';
import { closeDb, db, DB_NAME } from '@/lib/storage/database';
import { getConnection, setConnection } from '@/lib/storage/stored-connection';

const PROXY = 'https://proxy.test';
const TOKEN = `abk_m0123456789abcdef_${'a'.repeat(43)}`;
const ITEM: PendingItem = { url: 'https://cdn.example.com/cat.png', name: 'A cat', type: 'Image' };

const realFetch = globalThis.fetch;
let messages: any[];
let reply: unknown;

/** CreateAssetGroup behind `fetch`; the same Idempotency-Key answers the same Id. */
function fakeProxy(status = 200, body?: unknown) {
  const created = new Map<string, string>();
  return vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) => {
    const json = (s: number, b: unknown) => new Response(JSON.stringify(b), { status: s, headers: { 'Content-Type': 'application/json' } });
    if (status !== 200) return json(status, body);
    const key = new Headers(init.headers).get('Idempotency-Key') ?? crypto.randomUUID();
    if (!created.has(key)) created.set(key, `group-${created.size + 1}`);
    return json(200, { ResponseMetadata: { RequestId: 'r', Action: 'CreateAssetGroup' }, Result: { Id: created.get(key) } });
  });
}

beforeEach(async () => {
  await closeDb();
  await deleteDB(DB_NAME);
  fakeBrowser.reset();
  messages = [];
  reply = undefined;
  fakeBrowser.runtime.onMessage.addListener((message, _sender, sendResponse) => {
    messages.push(message);
    if (reply === undefined) return;
    sendResponse(reply);
    return true;
  });
  await setConnection({ proxyUrl: PROXY, token: TOKEN, memberName: 'Ada' });
});

afterEach(() => {
  unmount();
  globalThis.fetch = realFetch;
});

async function open(props: Partial<Parameters<typeof NewGroup>[0]> = {}) {
  mount(<NewGroup item={ITEM} close={() => {}} closeDelayMs={10} {...props} />);
  await vi.waitFor(() => byLabel('Group name'));
}

describe('new group form: validation', () => {
  it.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['65 characters', 'x'.repeat(65)],
  ])('rejects a name that is %s, naming the name field, without calling the proxy', async (_case, name) => {
    const fetch = (globalThis.fetch = fakeProxy());
    await open();
    type(byLabel('Group name'), name);
    click(button('Create group and add'));
    const input = byLabel('Group name');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(description(input)).toContain('Group name: must be 1 to 64 characters');
    expect(document.activeElement).toBe(input);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows a description problem next to the description field', async () => {
    globalThis.fetch = fakeProxy();
    await open();
    type(byLabel('Group name'), 'Heroes');
    type(byLabel<HTMLTextAreaElement>('Description (optional)'), 'd'.repeat(301));
    click(button('Create group and add'));
    const area = byLabel<HTMLTextAreaElement>('Description (optional)');
    expect(area.getAttribute('aria-invalid')).toBe('true');
    expect(description(area)).toContain('Description: must be at most 300 characters');
  });
});

describe('new group form: create and add', () => {
  it('creates the group with an Idempotency-Key, stores it as just used, hands the item to the background and closes', async () => {
    const fetch = (globalThis.fetch = fakeProxy());
    const close = vi.fn();
    await open({ close });
    type(byLabel('Group name'), ' Heroes ');
    type(byLabel<HTMLTextAreaElement>('Description (optional)'), 'Capes and masks');
    click(button('Create group and add'));

    await vi.waitFor(() => expect(text()).toContain('Added to Heroes; you can close this window'));
    const [input, init] = fetch.mock.calls[0]!;
    expect(String(input)).toBe(`${PROXY}/api/v3?Action=CreateAssetGroup&Version=2024-01-01`);
    expect(new Headers((init as RequestInit).headers).get('Idempotency-Key')).toBeTruthy();
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({ Name: 'Heroes', Description: 'Capes and masks' });
    const group = await (await db()).get('groups', 'group-1');
    expect(group).toMatchObject({ id: 'group-1', name: 'Heroes', description: 'Capes and masks', type: 'AIGC' });
    expect(group!.usedAt).toBeGreaterThan(0);
    expect(messages).toEqual([{ type: 'arkbridge:groups-changed' }, { type: 'arkbridge:add', item: { groupId: 'group-1', ...ITEM } }]);
    await vi.waitFor(() => expect(close).toHaveBeenCalled());
  });

  it('retries after a lost answer with the same Idempotency-Key', async () => {
    const proxy = fakeProxy();
    let first = true;
    globalThis.fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (first) {
        first = false;
        await proxy(input, init); // created, but the answer is lost
        throw new TypeError('Failed to fetch');
      }
      return proxy(input, init);
    });
    await open();
    type(byLabel('Group name'), 'Heroes');
    click(button('Create group and add'));
    await vi.waitFor(() => expect(text()).toContain('Cannot reach https://proxy.test'));
    expect(text()).toContain('will not create the group twice');
    click(button('Create group and add'));
    await vi.waitFor(() => expect(text()).toContain('Added to Heroes'));
    const keys = (globalThis.fetch as ReturnType<typeof vi.fn>).mock.calls.map(([, init]) => new Headers((init as RequestInit).headers).get('Idempotency-Key'));
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(messages).toEqual([{ type: 'arkbridge:groups-changed' }, { type: 'arkbridge:add', item: { groupId: 'group-1', ...ITEM } }]);
  });

  it('shows a proxy validation error next to the field it names', async () => {
    globalThis.fetch = fakeProxy(400, { ResponseMetadata: { Error: { Code: 'ValidationError', Message: 'Name: must be 1 to 64 characters' } } });
    await open();
    type(byLabel('Group name'), 'Heroes');
    click(button('Create group and add'));
    await vi.waitFor(() => expect(description(byLabel('Group name'))).toContain('Group name: must be 1 to 64 characters'));
  });

  it('on 401 marks the connection for reconnecting and offers the options page', async () => {
    globalThis.fetch = fakeProxy(401, { ResponseMetadata: { Error: { Code: 'AuthenticationFailed', Message: 'no' } } });
    const openOptionsPage = vi.fn(async () => {});
    fakeBrowser.runtime.openOptionsPage = openOptionsPage;
    await open();
    type(byLabel('Group name'), 'Heroes');
    click(button('Create group and add'));
    await vi.waitFor(() => expect(text()).toContain('did not accept your member token'));
    expect((await getConnection())?.needsReconnect).toBe(true);
    click(button('Open Arkbridge options'));
    expect(openOptionsPage).toHaveBeenCalled();
    expect(messages).toEqual([]);
  });

  it('says so when the background refuses the item, keeping the group', async () => {
    globalThis.fetch = fakeProxy();
    reply = { ok: false, message: 'This link is not a media file.' };
    await open();
    type(byLabel('Group name'), 'Heroes');
    click(button('Create group and add'));
    await vi.waitFor(() => expect(text()).toContain('Created Heroes, but the item was not added: This link is not a media file.'));
    expect(await (await db()).get('groups', 'group-1')).toBeDefined();
  });

  it('warns at once when Arkbridge is not connected', async () => {
    await (await db()).delete('settings', 'connection');
    await open();
    await vi.waitFor(() => expect(text()).toContain('not connected yet'));
    expect(button('Open Arkbridge options')).toBeDefined();
  });

  it('without an item, only creates the group', async () => {
    globalThis.fetch = fakeProxy();
    await open({ item: null });
    type(byLabel('Group name'), 'Heroes');
    click(button('Create group'));
    await vi.waitFor(() => expect(text()).toContain('Created Heroes; you can close this window'));
    expect(messages).toEqual([{ type: 'arkbridge:groups-changed' }]);
  });
});

describe('page plumbing', () => {
  it('reads the item from the query and ignores an unknown type', () => {
    expect(parseItem(new URLSearchParams({ url: ITEM.url, name: 'A cat', type: 'Image' }))).toEqual(ITEM);
    expect(parseItem(new URLSearchParams({ url: ITEM.url, name: 'A cat', type: 'Document' }))).toBeNull();
    expect(parseItem(new URLSearchParams())).toBeNull();
  });

  it('repeats a create after the page was reloaded with the same Idempotency-Key', async () => {
    const fetch = (globalThis.fetch = fakeProxy(504, { ResponseMetadata: { Error: { Code: 'UpstreamTimeout', Message: 'The service has not answered yet' } } }));
    await open();
    type(byLabel('Group name'), 'Heroes');
    click(button('Create group and add'));
    await vi.waitFor(() => expect(text()).toContain('it will not create the group twice'));
    unmount();
    await open();
    type(byLabel('Group name'), 'Heroes');
    click(button('Create group and add'));
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    const keys = fetch.mock.calls.map(([, init]) => new Headers((init as RequestInit).headers).get('Idempotency-Key'));
    expect(keys[1]).toBe(keys[0]);
  });
});

describe('new group form: Simplified Chinese', () => {
  afterEach(() => setLocale('en'));

  it('speaks Chinese when the browser does, validation and result included', async () => {
    await setLocale('zh-CN');
    globalThis.fetch = fakeProxy();
    mount(<NewGroup item={ITEM} close={() => {}} closeDelayMs={10} />);
    await vi.waitFor(() => byLabel('分组名称'));
    expect(document.querySelector('h1')?.textContent).toBe('新建分组');
    expect(text()).toContain('新分组将接收 A cat（图片）。');
    expect(byLabel<HTMLTextAreaElement>('描述（可选）')).toBeDefined();
    expect(button('取消')).toBeDefined();

    click(button('创建分组并添加'));
    expect(description(byLabel('分组名称'))).toContain('分组名称：长度须为 1 到 64 个字符');

    type(byLabel('分组名称'), 'Heroes');
    click(button('创建分组并添加'));
    await vi.waitFor(() => expect(text()).toContain('已添加到 Heroes；可以关闭此窗口了'));
  });
});
