import type { ProxySettings } from './proxy-settings';

/**
 * The proxy Worker's bindings: its settings, the media bucket and the namespaces of its Durable
 * Objects. The namespaces are untyped here so that nothing below the objects depends on their
 * classes: objects/handles.ts is the one place that gives them their class types.
 */
export interface ProxyEnv extends ProxySettings {
  MEMBERS: DurableObjectNamespace;
  DIRECTORY: DurableObjectNamespace;
  LEDGER: DurableObjectNamespace;
  /** The team library: shared groups, roles, the gallery (docs/team-library.md). */
  LIBRARY: DurableObjectNamespace;
  /** The team's queue of creates waiting for a slot at the service (docs/queue.md). */
  QUEUE: DurableObjectNamespace;
  /** The media store: uploads and kept outputs (docs/media-store.md). */
  MEDIA: R2Bucket;
}
