import type { ProxySettings } from '../../infra/settings/proxy-settings';

/** What the media store needs: the settings and the R2 bucket (the ledger's bookkeeping is passed in apart). */
export type MediaEnv = ProxySettings & { MEDIA: R2Bucket };
