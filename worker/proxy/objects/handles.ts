import type { ProxySettings } from '../infra/settings/proxy-settings';
import type { TeamLedger } from './team-ledger';

/** The settings plus the ledger's namespace: what members' objects and admin routes need to reach it. */
export type LedgerEnv = ProxySettings & { LEDGER: DurableObjectNamespace<TeamLedger> };

/** The ledger's id per namespace: a pure function of its name, derived once per isolate rather than per create. */
const ids = new WeakMap<DurableObjectNamespace<TeamLedger>, DurableObjectId>();

/** The team's one ledger object. */
export function ledgerOf(env: LedgerEnv): DurableObjectStub<TeamLedger> {
  let id = ids.get(env.LEDGER);
  if (!id) ids.set(env.LEDGER, (id = env.LEDGER.idFromName('team')));
  return env.LEDGER.get(id);
}
