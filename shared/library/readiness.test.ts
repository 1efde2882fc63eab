import { describe, expect, it } from 'vitest';
import { readinessFor } from './readiness';

const MODEL = 'doubao-seedance-2-0-260128';

describe('readinessFor', () => {
  it('uses the entry that names the model', () => {
    const asset = {
      Status: 'Active' as const,
      ModelReadiness: [
        { Models: ['other-model'], Status: 'Active' as const },
        { Models: [MODEL, 'x'], Status: 'Preparing' as const },
      ],
    };
    expect(readinessFor(asset, MODEL)).toEqual({ status: 'Preparing', usable: 'wait' });
    expect(readinessFor(asset, 'other-model')).toEqual({ status: 'Active', usable: 'now' });
  });

  it('falls back to the asset Status when no entry names the model, or there are none', () => {
    expect(readinessFor({ Status: 'Processing', ModelReadiness: [{ Models: ['x'], Status: 'Active' }] }, MODEL)).toEqual({ status: 'Processing', usable: 'wait' });
    expect(readinessFor({ Status: 'Active' }, MODEL)).toEqual({ status: 'Active', usable: 'now' });
    expect(readinessFor({ Status: 'Failed' }, MODEL)).toEqual({ status: 'Failed', usable: 'never' });
  });

  it('says an Unavailable or Failed entry can never be used, with its message', () => {
    const asset = { Status: 'Active' as const, ModelReadiness: [{ Models: [MODEL], Status: 'Unavailable' as const, Error: { Message: 'Takes no library references.' } }] };
    expect(readinessFor(asset, MODEL)).toEqual({ status: 'Unavailable', message: 'Takes no library references.', usable: 'never' });
  });
});
