import type { LedgerEnv } from '../../objects/handles';

/** What the media store needs: the R2 bucket, the ledger (storage per member) and the settings. */
export type MediaEnv = LedgerEnv & { MEDIA: R2Bucket };
