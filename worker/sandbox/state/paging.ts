import type { Page } from '../../../shared';

interface PageRequest {
  PageNumber: number;
  PageSize: number;
  SortOrder: 'Asc' | 'Desc';
}

type SortKey = readonly (string | number)[];

const compare = (a: SortKey, b: SortKey): number => {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! < b[i]!) return -1;
    if (a[i]! > b[i]!) return 1;
  }
  return 0;
};

/** Sorts by `key` (ties broken by the later key parts), then cuts out the requested page. */
export function paginate<T, R>(items: T[], key: (item: T) => SortKey, req: PageRequest, map: (item: T) => R): Page<R> {
  const sign = req.SortOrder === 'Asc' ? 1 : -1;
  const sorted = [...items].sort((a, b) => sign * compare(key(a), key(b)));
  const start = (req.PageNumber - 1) * req.PageSize;
  return {
    Items: sorted.slice(start, start + req.PageSize).map(map),
    TotalCount: items.length,
    PageNumber: req.PageNumber,
    PageSize: req.PageSize,
  };
}
