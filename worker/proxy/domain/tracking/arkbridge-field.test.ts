import { describe, expect, it } from 'vitest';
import { withArkbridge } from './arkbridge-field';

const field = { cost: 3.672, currency: 'CNY', priced: true };

describe('withArkbridge', () => {
  it("appends the field and keeps the service's bytes as sent", () => {
    const service = '{"id":"t1", "status":"queued","note":"a}b"}';
    const out = withArkbridge(service, field);
    expect(out.startsWith(service.slice(0, -1))).toBe(true);
    expect(JSON.parse(out)).toEqual({ id: 't1', status: 'queued', note: 'a}b', arkbridge: field });
  });

  it('handles an empty object and trailing whitespace', () => {
    expect(JSON.parse(withArkbridge('{ }\n', field))).toEqual({ arkbridge: field });
  });

  it('leaves text that is not a JSON object unchanged', () => {
    expect(withArkbridge('[1,2]', field)).toBe('[1,2]');
    expect(withArkbridge('', field)).toBe('');
  });
});
