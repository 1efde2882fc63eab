import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  API_PATH,
  API_REGION,
  API_SERVICE,
  API_VERSION,
  ASSET_STATUSES,
  ASSET_TYPES,
  GROUP_TYPES,
  isAction,
  LIBRARY_ERROR_CODES,
  READINESS_STATUSES,
} from './constants';

describe('library constants', () => {
  it('are Version 2024-01-01, Service ark, Region cn-beijing, path /api/v3', () => {
    expect(API_VERSION).toBe('2024-01-01');
    expect(API_SERVICE).toBe('ark');
    expect(API_REGION).toBe('cn-beijing');
    expect(API_PATH).toBe('/api/v3');
  });

  it('list the twelve operations in the order the service describes them', () => {
    expect(ACTIONS).toEqual([
      'CreateAssetGroup',
      'ListAssetGroups',
      'GetAssetGroup',
      'UpdateAssetGroup',
      'DeleteAssetGroup',
      'CreateAsset',
      'GetAsset',
      'ListAssets',
      'UpdateAsset',
      'DeleteAsset',
      'CreatePortraitSession',
      'ResolvePartnerToken',
    ]);
  });

  it('list the service enumerations', () => {
    expect(GROUP_TYPES).toEqual(['AIGC', 'LivenessFace']);
    expect(ASSET_TYPES).toEqual(['Image', 'Video', 'Audio']);
    expect(ASSET_STATUSES).toEqual(['Processing', 'Active', 'Failed']);
    expect(READINESS_STATUSES).toEqual(['Preparing', 'Processing', 'Active', 'Failed', 'Unavailable']);
  });

  it('include the error codes the service names', () => {
    for (const code of ['AccessDenied', 'ValidationError', 'ResourceDownloadFailed', 'AuthenticationFailed']) {
      expect(LIBRARY_ERROR_CODES).toContain(code);
    }
  });
});

describe('isAction', () => {
  it('is true for each of the twelve operations', () => {
    for (const action of ACTIONS) expect(isAction(action)).toBe(true);
  });

  it('is false for unknown names, other case, and non-strings', () => {
    for (const value of ['createassetgroup', 'CreateVideo', '', undefined, null, 1, ['CreateAsset']]) {
      expect(isAction(value)).toBe(false);
    }
  });
});
