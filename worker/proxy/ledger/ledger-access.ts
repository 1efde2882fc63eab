import type { ProxySettings } from '../proxy-settings';
import type { TeamLedger } from './team-ledger';

/** The settings plus the ledger's namespace: what members' objects and admin routes need to reach it. */
export type LedgerEnv = ProxySettings & { LEDGER: DurableObjectNamespace<TeamLedger> };

/** The team's one ledger object. */
export const ledgerOf = (env: LedgerEnv): DurableObjectStub<TeamLedger> => env.LEDGER.get(env.LEDGER.idFromName('team'));
