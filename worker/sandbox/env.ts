import type { SandboxSettings } from './sandbox-settings';
import type { ServiceState } from './state/service-state';

/** The sandbox Worker's bindings: its settings and the namespace of its one Durable Object. */
export interface SandboxEnv extends SandboxSettings {
  SERVICE: DurableObjectNamespace<ServiceState>;
}
