import * as v from 'valibot';

/**
 * `POST /proxy/assets/statuses` (docs/proxy-api.md#assets-followed-by-the-proxy): what the proxy
 * knows of the assets the caller created through it, which it follows to `Active` or `Failed` on its
 * own. An id it does not follow (created elsewhere, before the proxy followed every asset, or ended
 * over ASSET_OUTCOME_DAYS ago) is left out, and only then does a client ask the service itself.
 */

/** How long the proxy keeps telling how a followed asset ended. */
export const ASSET_OUTCOME_DAYS = 7;

export const followedAssetSchema = v.pipe(
  v.object({
    id: v.string(),
    /** `Processing`: followed, not ended yet; `Active` or `Failed` as the service listed it. */
    status: v.picklist(['Processing', 'Active', 'Failed']),
    /** The service's `Error` of a failed asset; null otherwise. */
    error: v.nullable(v.object({ code: v.string(), message: v.string() })),
    /** When the proxy saw it end (ISO 8601 UTC); null while processing. */
    endedAt: v.nullable(v.string()),
  }),
  v.metadata({ ref: 'FollowedAsset' }),
);
export type FollowedAsset = v.InferOutput<typeof followedAssetSchema>;

export const assetStatusesAnswerSchema = v.object({ assets: v.array(followedAssetSchema) });
export type AssetStatusesAnswer = v.InferOutput<typeof assetStatusesAnswerSchema>;
