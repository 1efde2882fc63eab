/**
 * The queue's fair order (docs/queue.md), the one place it is decided: the next launch goes to the
 * member, among those with queued creates, whose last launch (direct or queued) is the oldest, a
 * member who never launched first; within a member, the oldest create first. Each launch makes its
 * member the most recent, so the order is rounds: one create of each member per round, the members
 * in the order of their last launch (ties: whose oldest create is older, then the member id).
 * Linear in the number of items after one sort of the members.
 */

export interface Queued {
  id: string;
  member: string;
  /** Order of arrival in the queue (increasing). */
  seq: number;
}

/** The queued creates in the order they will launch. `lastLaunch`: ms per member; absent: never. */
export function fairOrder<T extends Queued>(items: readonly T[], lastLaunch: Readonly<Record<string, number>>): T[] {
  const byMember = new Map<string, T[]>();
  for (const item of [...items].sort((a, b) => a.seq - b.seq)) {
    const own = byMember.get(item.member);
    if (own) own.push(item);
    else byMember.set(item.member, [item]);
  }
  const last = (member: string) => lastLaunch[member] ?? -Infinity;
  const members = [...byMember.keys()].sort(
    (a, b) => last(a) - last(b) || byMember.get(a)![0]!.seq - byMember.get(b)![0]!.seq || (a < b ? -1 : a > b ? 1 : 0),
  );
  const order: T[] = [];
  for (let round = 0; order.length < items.length; round++) {
    for (const member of members) {
      const item = byMember.get(member)![round];
      if (item) order.push(item);
    }
  }
  return order;
}
