import { describe, expect, it } from 'vitest';
import { saveStatusOf } from '@/lib/page-media/save-status';
import { assetRecord } from '@/lib/testing/test-setup';

describe('saveStatusOf', () => {
  it('is saving until the background answers', () => {
    expect(saveStatusOf(undefined, undefined)).toEqual({ kind: 'saving' });
  });

  it('follows the record: queued, uploading, processing, Active, Failed with the reason', () => {
    const ok = { ok: true as const, localId: 'a' };
    expect(saveStatusOf(ok, undefined)).toEqual({ kind: 'queued' });
    expect(saveStatusOf(ok, assetRecord({ localId: 'a', status: 'Queued' }))).toEqual({ kind: 'queued' });
    const uploading = assetRecord({ localId: 'a', status: 'Queued', capture: { how: 'upload', reason: 'data', stage: 'uploading', source: 's', bytesKey: 'a' } });
    expect(saveStatusOf(ok, uploading)).toEqual({ kind: 'uploading' });
    expect(saveStatusOf(ok, assetRecord({ localId: 'a', status: 'Processing' }))).toEqual({ kind: 'processing' });
    expect(saveStatusOf(ok, assetRecord({ localId: 'a', status: 'Active' }))).toEqual({ kind: 'active' });
    expect(saveStatusOf(ok, assetRecord({ localId: 'a', status: 'Failed', error: 'Not an image' }))).toEqual({ kind: 'failed', message: 'Not an image' });
  });

  it('tells a refusal and a duplicate apart', () => {
    expect(saveStatusOf({ ok: false, message: 'Not added: file: addresses' }, undefined)).toEqual({ kind: 'failed', message: 'Not added: file: addresses' });
    expect(saveStatusOf({ ok: false, message: 'Already there', duplicate: true, localId: 'a' }, assetRecord({ localId: 'a', status: 'Active' }))).toEqual({ kind: 'duplicate' });
  });
});
