import { describe, expect, it } from 'vitest';
import type { Asset } from '@@/shared';
import { countByGroup, isNarrowed } from '@/lib/library/library-view-model';
import { readinessLines } from '@/lib/library/readiness-lines';
import { assetRecord } from '@/lib/testing/test-setup';

const assets = [
  assetRecord({ localId: 'a', name: 'Orange Cat', groupId: 'g1', status: 'Active' }),
  assetRecord({ localId: 'b', name: 'black cat', groupId: 'g2', status: 'Failed' }),
  assetRecord({ localId: 'c', name: 'Dog', groupId: 'g1', status: 'Queued' }),
  assetRecord({ localId: 'd', name: 'CAT café', groupId: 'g1', status: 'Processing' }),
];

describe('library view model', () => {
  it('a query narrows the view by its text or status, not by blanks', () => {
    expect(isNarrowed({ groupId: null, search: ' ', status: 'all' })).toBe(false);
    expect(isNarrowed({ groupId: null, search: '', status: 'Failed' })).toBe(true);
  });

  it('counts assets per group', () => {
    expect(Object.fromEntries(countByGroup(assets))).toEqual({ g1: 3, g2: 1 });
  });
});

describe('readiness lines', () => {
  const base: Asset = { Id: 'x', GroupId: 'g', Name: 'n', URL: 'https://e/x.png', AssetType: 'Image', Status: 'Processing', Error: { Code: '', Message: '' } };

  it('labels models from the catalog and keeps the service grouping and reasons', () => {
    const lines = readinessLines({
      ...base,
      ModelReadiness: [
        { Models: ['doubao-seedance-2-0-260128', 'doubao-seedance-2-0-fast-260128'], Status: 'Active' },
        { Models: ['doubao-seedance-1-0-pro-250528', 'some-new-model'], Status: 'Unavailable', Error: { Message: 'No library references.' } },
      ],
    });
    expect(lines).toEqual([
      { models: [{ id: 'doubao-seedance-2-0-260128', label: 'Seedance 2.0' }, { id: 'doubao-seedance-2-0-fast-260128', label: 'Seedance 2.0 Fast' }], status: 'Active', message: '' },
      { models: [{ id: 'doubao-seedance-1-0-pro-250528', label: 'Seedance 1.0 Pro' }, { id: 'some-new-model', label: 'some-new-model' }], status: 'Unavailable', message: 'No library references.' },
    ]);
  });

  it('falls back to the asset status for library models no entry names', () => {
    expect(readinessLines({ ...base, Status: 'Failed', Error: { Code: 'ResourceDownloadFailed', Message: 'HTTP 404' } })).toEqual([
      { models: [{ id: 'doubao-seedance-2-0-260128', label: 'Seedance 2.0' }, { id: 'doubao-seedance-2-0-fast-260128', label: 'Seedance 2.0 Fast' }], status: 'Failed', message: 'HTTP 404' },
    ]);
  });
});
