import { describe, expect, it } from 'vitest';
import type { UsageRow } from '../../../../shared';
import { usageCsv } from './usage-report';

const row = (over: Partial<UsageRow>): UsageRow => ({ day: '2026-11-23', member: 'm1', model: 'model-a', tasks: 1, completed: 1, failed: 0, seconds: 5, cost: 0.5, tokens: 100, ...over });

describe('usageCsv', () => {
  it('writes a header and one CRLF line per row', () => {
    expect(usageCsv([row({})])).toBe('day,member,model,tasks,completed,failed,seconds,cost,tokens\r\n2026-11-23,m1,model-a,1,1,0,5,0.5,100\r\n');
  });

  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    const csv = usageCsv([row({ model: 'a,"b"\nc' })]);
    expect(csv.split('\r\n')[1]).toBe('2026-11-23,m1,"a,""b""\nc",1,1,0,5,0.5,100');
  });

  it('never lets a spreadsheet read a cell as a formula', () => {
    for (const model of ['=HYPERLINK("x")', '+1', '-1', '@SUM(A1)']) {
      expect(usageCsv([row({ model })]).split('\r\n')[1]).toContain(`'${model.slice(0, 2)}`);
    }
  });
});
