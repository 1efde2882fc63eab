import * as v from 'valibot';
import { strictObjectMessage } from './validation';

/** An asset id as the proxy's own routes take it: the service's ids are far shorter. */
export const ASSET_ID_MAX = 128;
/** Ids one call of a batch route takes (`POST /proxy/sources`, `POST /proxy/assets/statuses`). */
export const ASSET_BATCH_MAX = 100;

export const assetIdSchema = v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(ASSET_ID_MAX, `must be at most ${ASSET_ID_MAX} characters`));

/** `{"ids":[...]}`: 1 to ASSET_BATCH_MAX asset ids (repeats are answered once). */
export const assetIdBatchSchema = v.strictObject(
  {
    ids: v.pipe(
      v.array(assetIdSchema, 'must be an array of asset ids'),
      v.nonEmpty('must name at least one id'),
      v.maxLength(ASSET_BATCH_MAX, `must name at most ${ASSET_BATCH_MAX} ids`),
    ),
  },
  strictObjectMessage('is not a field of this call'),
);
export type AssetIdBatch = v.InferInput<typeof assetIdBatchSchema>;
