import { describe, expect, it } from 'vitest';
import { admin } from '../../testing/gateway-test-steps';
import { call } from '../../testing/proxy-test-client';
import { group, member, noUpstream } from '../../testing/proxy-test-steps';
import { share } from '../../testing/sharing-test-steps';

/**
 * Records of a request body (shared/validation.ts, `recordOf`): a reserved key (`__proto__`,
 * `constructor`, `prototype`), which valibot's own record drops without a word, and a list where an
 * object belongs, are 400 naming them, on the routes that take records.
 */

describe('reserved keys and lists in request records', () => {
  it.each([
    ['{"members":{"__proto__":"viewer"}}', 'members.__proto__'],
    ['{"team":"viewer","members":{"constructor":"none"}}', 'members.constructor'],
    ['{"members":{"prototype":"editor"}}', 'members.prototype'],
    ['{"members":["viewer"]}', 'members'],
  ])('PUT /proxy/groups/{id}/sharing %s: 400 naming %s, the sharing unchanged', async (body, param) => {
    const owner = await member('owner');
    const g = await group(owner);
    const r = await noUpstream(() => share(owner, g, body));
    expect([r.status, r.body.error.code, r.body.error.param]).toEqual([400, 'invalid_parameter', param]);
    expect((await call(owner, 'GET', `/proxy/groups/${g}/sharing`)).body).toMatchObject({ team: 'none', members: {} });
  });

  it.each([
    ['{"currency":"CNY","models":{"__proto__":{"*":1}}}', 'models.__proto__'],
    ['{"currency":"CNY","models":{"doubao-seedance-2-0-260128":{"*":1,"constructor":2}}}', 'models.doubao-seedance-2-0-260128.constructor'],
    ['{"currency":"CNY","models":[{"*":1}]}', 'models'],
  ])('PUT /admin/prices %s: 400 naming %s, the default table still in use', async (body, param) => {
    const r = await admin('PUT', '/admin/prices', JSON.parse(body));
    expect([r.status, r.body.error.code, r.body.error.param]).toEqual([400, 'invalid_parameter', param]);
    expect((await admin('GET', '/admin/prices')).body.isDefault).toBe(true);
  });
});
