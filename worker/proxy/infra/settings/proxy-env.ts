import type { MemberDirectory } from '../../objects/member-directory';
import type { MemberState } from '../../objects/member-state';
import type { TeamLedger } from '../../objects/team-ledger';
import type { ProxySettings } from './proxy-settings';

/** The proxy Worker's bindings: its settings and the namespaces of its Durable Objects. */
export interface ProxyEnv extends ProxySettings {
  MEMBERS: DurableObjectNamespace<MemberState>;
  DIRECTORY: DurableObjectNamespace<MemberDirectory>;
  LEDGER: DurableObjectNamespace<TeamLedger>;
  /** The media store: uploads and kept outputs (docs/media-store.md). */
  MEDIA: R2Bucket;
}
