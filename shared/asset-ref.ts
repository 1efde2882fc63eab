/** Library references in video requests: `asset://<asset_id>`. */
export const ASSET_SCHEME = 'asset://';

/** The reference for a library asset id. */
export const toAssetRef = (assetId: string): string => `${ASSET_SCHEME}${assetId}`;

/** Whether `url` is a library reference (well-formed or not). */
export const isAssetRef = (url: string): boolean => url.startsWith(ASSET_SCHEME);

/** The asset id of a well-formed `asset://<id>` reference, else null. */
export function parseAssetRef(url: string): string | null {
  if (!isAssetRef(url)) return null;
  const id = url.slice(ASSET_SCHEME.length);
  return /^[A-Za-z0-9_-]{1,128}$/.test(id) ? id : null;
}
