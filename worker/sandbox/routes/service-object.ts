import type { SandboxEnv } from '../env';

/** The one ServiceState object that holds the sandbox's data. */
export const service = (env: SandboxEnv) => env.SERVICE.get(env.SERVICE.idFromName('service'));
