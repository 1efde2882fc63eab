/** Constants of the asset library interface (`/api/v3`). */
export const API_VERSION = '2024-01-01';
export const API_SERVICE = 'ark';
export const API_REGION = 'cn-beijing';
export const API_PATH = '/api/v3';

/** The twelve operations, in the order the service describes them. */
export const ACTIONS = [
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
] as const;
export type Action = (typeof ACTIONS)[number];

export const isAction = (value: unknown): value is Action =>
  typeof value === 'string' && (ACTIONS as readonly string[]).includes(value);

export const GROUP_TYPES = ['AIGC', 'LivenessFace'] as const;
export type GroupType = (typeof GROUP_TYPES)[number];

export const ASSET_TYPES = ['Image', 'Video', 'Audio'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

export const ASSET_STATUSES = ['Processing', 'Active', 'Failed'] as const;
export type AssetStatus = (typeof ASSET_STATUSES)[number];

export const READINESS_STATUSES = ['Preparing', 'Processing', 'Active', 'Failed', 'Unavailable'] as const;
export type ReadinessStatus = (typeof READINESS_STATUSES)[number];

/** Error codes of the library interface; the first three are the service's, the rest name auth and upstream failures. */
export const LIBRARY_ERROR_CODES = [
  'AccessDenied',
  'ValidationError',
  'ResourceDownloadFailed',
  'AuthenticationFailed',
  'SignatureDoesNotMatch',
  'InvalidAccessKey',
  'RequestLimitExceeded',
  'InternalError',
  'ServiceUnavailable',
] as const;
export type LibraryErrorCode = (typeof LIBRARY_ERROR_CODES)[number];
