import { useEffect } from 'preact/hooks';
import { readUsage, refreshUsage } from '@/lib/budget/usage-refresh';
import { usageSummary } from '@/lib/budget/usage-summary';
import { afterFirstPaint } from '@/lib/popup/first-paint';
import { useDb } from '@/lib/popup/use-db';

/**
 * The member's budget under the popup's header, e.g. "Budget: 83.83 CNY left of 100 CNY this month
 * · 1 of 3 running", and the latest alert highlighted. Painted from IndexedDB, read again from the
 * proxy once the popup's first view has painted (the proxy client is loaded then, not before) and
 * by Generate after each create. Nothing at all when the proxy keeps no budgets.
 */
export function BudgetLine() {
  const usage = useDb(readUsage, ['settings']);
  useEffect(() => afterFirstPaint(() => void refreshUsage()), []);
  if (!usage) return null;
  const { member, team, running, alert } = usageSummary(usage);
  return (
    <div class="budget">
      <p class="budget__line">
        <span>{member}</span>
        {team && <span class="budget__team"> · {team}</span>}
        {running && <span> · {running}</span>}
      </p>
      {alert && <p class={`budget__alert budget__alert--${alert.tone}`}>{alert.text}</p>}
    </div>
  );
}
