import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '@/lib/i18n/translate';
import { ApiError, type ApiFailure } from '@/lib/proxy/api-failure';
import { CONNECT_WORDING, describeFailure, problemOf, refusalMessage } from '@/lib/proxy/failure-message';
import { getConnection } from '@/lib/storage/stored-connection';
import { connect, resetState } from '@/lib/testing/test-setup';

const failed = (failure: ApiFailure) => new ApiError(failure);
const rejected = (code: string, message: string, extra: { status?: number; field?: string } = {}) =>
  failed({ kind: 'rejected', status: extra.status ?? 400, code, message, ...(extra.field ? { field: extra.field } : {}) });

beforeEach(async () => {
  await resetState();
});
afterEach(() => setLocale('en'));

describe('failure messages', () => {
  it('word each kind of failure for the popup', () => {
    expect(describeFailure(failed({ kind: 'unauthorized', message: 'x' }))).toEqual({ message: 'The proxy did not accept your member token: reconnect in the options.', reconnect: true });
    expect(describeFailure(failed({ kind: 'network', message: 'x' }))).toEqual({ message: 'Cannot reach the proxy. Check your connection and try again.' });
    expect(describeFailure(failed({ kind: 'rate_limited', message: 'x', retryAfterMs: 1500 }))).toEqual({ message: 'The proxy is busy: try again in 2 s.' });
    expect(describeFailure(failed({ kind: 'service', status: 502, code: 'Down', message: 'Down.' }))).toEqual({ message: 'Down. Try again in a moment.' });
    expect(describeFailure(rejected('AccessDenied', 'no'))).toEqual({ message: 'This item is not in your library (it may have been deleted).' });
    expect(describeFailure(new Error('boom'))).toEqual({ message: 'Unexpected error: boom' });
  });

  it('word them for the options page, naming the address', () => {
    const options = { wording: CONNECT_WORDING, proxyUrl: 'https://proxy.test' };
    expect(describeFailure(failed({ kind: 'network', message: 'x' }), options).message).toBe('Cannot reach https://proxy.test: check the address and that the proxy is running');
    expect(describeFailure(rejected('http_404', 'x', { status: 404 }), options).message).toBe('https://proxy.test answered, but not like an Arkbridge proxy: check the address');
    expect(describeFailure(failed({ kind: 'service', status: 502, code: 'Down', message: 'Down.' }), options).message).toBe('Down.');
  });

  it('show a refusal naming a form field at that field, under its label', () => {
    const error = rejected('ValidationError', 'Name: must be 1 to 64 characters', { field: 'Name' });
    expect(describeFailure(error, { fields: { Name: 'name' }, labels: { name: 'Group name' } })).toEqual({ field: 'name', message: 'Group name: must be 1 to 64 characters' });
    expect(describeFailure(error)).toEqual({ message: 'Name: must be 1 to 64 characters' });
  });

  it('speak Simplified Chinese', async () => {
    await setLocale('zh-CN');
    expect(describeFailure(failed({ kind: 'network', message: 'x' })).message).toBe('无法连接代理服务。请检查网络后重试。');
  });

  it('record a refused token, so the whole extension asks to reconnect', async () => {
    await connect();
    expect(await problemOf(failed({ kind: 'unauthorized', message: 'x' }))).toMatchObject({ reconnect: true });
    expect(await getConnection()).toMatchObject({ needsReconnect: true });
  });

  it('leave the stored connection alone when only describing a failure (testing another token)', async () => {
    await connect();
    describeFailure(failed({ kind: 'unauthorized', message: 'x' }), { wording: CONNECT_WORDING });
    expect((await getConnection())?.needsReconnect).toBeFalsy();
  });

  it('word a refusal for the budgets with what to do, not the service’s busy message', async () => {
    const budget = failed({
      kind: 'rejected',
      status: 402,
      code: 'budget_exceeded',
      message: 'x',
      refusal: { code: 'budget_exceeded', scope: 'member', remaining: 1.2, cost: 3.672, currency: 'CNY' },
    });
    expect(describeFailure(budget).message).toBe(
      'Your budget cannot cover this task: 1.20 CNY left, and it costs 3.67 CNY. Nothing was created, and submitting again will not help until the budget is raised (a monthly budget starts again on the 1st, UTC): ask your team’s admin.',
    );
    expect(refusalMessage({ code: 'budget_exceeded', scope: 'team', remaining: null, cost: null, currency: null })).toMatch(/^The team’s budget cannot cover this task\. Nothing was created.*ask your team’s admin\.$/);
    const running = failed({ kind: 'rejected', status: 429, code: 'too_many_running_tasks', message: 'x', refusal: { code: 'too_many_running_tasks', running: 3, maxRunning: 3 } });
    expect(describeFailure(running).message).toBe('You already have 3 of 3 tasks running, as many as allowed. Nothing was created: wait for a running task to finish, then submit again.');
    await setLocale('zh-CN');
    expect(describeFailure(budget).message).toMatch(/^你的预算不足以支付此任务：剩余 1\.20 CNY，此任务需要 3\.67 CNY。未创建任何任务.*请联系团队管理员。$/);
    expect(describeFailure(running).message).toBe('你已有 3/3 个任务在运行，已达上限。未创建任何任务：请等待一个运行中的任务完成后再提交。');
  });
});
