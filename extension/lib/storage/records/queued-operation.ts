/**
 * The `queue` store's record. Types only, importing nothing from the extension (no import cycles).
 * A create waiting to be sent (records to create are added with asset-store's addQueued).
 */
export interface QueuedOperation {
  key?: number;
  kind: 'createAsset';
  /** The local id of the record this operation creates. */
  localId: string;
  attempts: number;
  /** Not before this time (backoff, Retry-After). */
  notBefore: number;
}
