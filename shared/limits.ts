/** Limits stated by the service interface (section "Limits"). */
export const LIMITS = {
  groupNameMin: 1,
  groupNameMax: 64,
  groupDescriptionMax: 300,
  pageNumberDefault: 1,
  pageSizeDefault: 20,
  pageSizeMax: 100,
  clockSkewSeconds: 15 * 60,
  progressMin: 0,
  progressMax: 100,
  /** Not stated by the service; Arkbridge's own bound so names stay displayable. */
  assetNameMax: 255,
  /** Contract sections 4 and 5. */
  idempotencyKeyMax: 255,
} as const;
