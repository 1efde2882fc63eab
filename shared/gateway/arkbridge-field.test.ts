import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { arkbridgeFieldSchema, KEEP_ERROR_MAX, KEPT_URL_MAX } from './arkbridge-field';

const read = (value: unknown) => {
  const result = v.safeParse(arkbridgeFieldSchema, value);
  return result.success ? result.output : null;
};

const COST = { cost: 3.672, currency: 'CNY', priced: true };
const KEPT = 'https://proxy.example.com/media/o-m0123-cgt-1?expires=1766491200&sig=' + 'a'.repeat(64);

describe('arkbridgeFieldSchema: the proxy’s object on task answers', () => {
  it('reads the cost, tracking and the kept copy, ignoring unknown fields', () => {
    expect(read(COST)).toEqual(COST);
    expect(read({ ...COST, priced: false, cost: 0, tracking: 'expired' })).toEqual({ ...COST, priced: false, cost: 0, tracking: 'expired' });
    expect(read({ ...COST, keptUrl: KEPT, keptUntil: 1_766_491_200, later: 1 })).toEqual({ ...COST, keptUrl: KEPT, keptUntil: 1_766_491_200 });
    expect(read({ ...COST, keptUrl: 'http://127.0.0.1:8787/media/o-x' })).toMatchObject({ keptUrl: 'http://127.0.0.1:8787/media/o-x' });
    const FRAME = KEPT.replace('/o-', '/f-');
    expect(read({ ...COST, keptUrl: KEPT, keptLastFrameUrl: FRAME })).toEqual({ ...COST, keptUrl: KEPT, keptLastFrameUrl: FRAME });
    for (const keep of ['pending', 'failed', 'deleted']) expect(read({ ...COST, keep })).toEqual({ ...COST, keep });
    expect(read({ ...COST, keep: 'failed', keepError: 'The service answered 403.' })).toMatchObject({ keepError: 'The service answered 403.' });
  });

  it('refuses a malformed object', () => {
    for (const wrong of [
      { cost: '3' },
      { cost: -1 },
      { cost: Number.POSITIVE_INFINITY },
      { currency: '' },
      { currency: 'X'.repeat(17) },
      { priced: 'yes' },
      { tracking: 'tracking' },
      { keptUrl: 'javascript:alert(1)' },
      { keptUrl: 'data:video/mp4;base64,AAAA' },
      { keptUrl: '/media/o-x' },
      { keptUrl: `https://proxy.example.com/${'x'.repeat(KEPT_URL_MAX)}` },
      { keptLastFrameUrl: 'javascript:alert(1)' },
      { keptLastFrameUrl: '/media/f-x' },
      { keptLastFrameUrl: `https://proxy.example.com/${'x'.repeat(KEPT_URL_MAX)}` },
      { keptUntil: 1.5 },
      { keptUntil: '1766491200' },
      { keep: 'kept' },
      { keepError: 'x'.repeat(KEEP_ERROR_MAX + 1) },
    ]) {
      expect(read({ ...COST, ...wrong }), JSON.stringify(wrong)).toBeNull();
    }
    const { currency: _c, ...noCurrency } = COST;
    expect(read(noCurrency)).toBeNull();
    expect(read('cheap')).toBeNull();
  });
});
