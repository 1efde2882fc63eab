import { DEFAULT_PRICES, tableUnit, type PriceTable, type PriceUnit } from '../../../../shared';

/**
 * The team's price table: the operator's (PUT /admin/prices) or the default shipped in the catalog.
 * A stored table is kept as written (one from before units has no `unit`: per second).
 */

/** `GET /admin/prices`: the table at the top level, its unit stated, read-only metadata beside it. */
export type StoredPrices = PriceTable & {
  unit: PriceUnit;
  /** True while no operator table was set. */
  isDefault: boolean;
  updatedAt: string | null;
};

interface Current {
  table: PriceTable;
  isDefault: boolean;
  updatedAt: string | null;
}

export class PriceBook {
  #cached: Current | undefined;

  constructor(private readonly sql: SqlStorage) {}

  /** The table in use. Read once per instance: only `replace` and `reset` change it, in this same object. */
  table(): PriceTable {
    return this.#current().table;
  }

  /** The table as `GET /admin/prices` answers it, which `PUT /admin/prices` takes back. */
  current(): StoredPrices {
    const { table, isDefault, updatedAt } = this.#current();
    return { ...table, unit: tableUnit(table), isDefault, updatedAt };
  }

  #current(): Current {
    if (!this.#cached) {
      const row = this.sql.exec('SELECT json, updated_at FROM prices WHERE id = 1').toArray()[0];
      this.#cached = row
        ? { table: JSON.parse(String(row.json)) as PriceTable, isDefault: false, updatedAt: new Date(row.updated_at as number).toISOString() }
        : { table: DEFAULT_PRICES, isDefault: true, updatedAt: null };
    }
    return this.#cached;
  }

  reset(): StoredPrices {
    this.sql.exec('DELETE FROM prices');
    this.#cached = undefined;
    return this.current();
  }

  replace(table: PriceTable, now: number): StoredPrices {
    this.sql.exec('INSERT OR REPLACE INTO prices (id, json, updated_at) VALUES (1, ?, ?)', JSON.stringify(table), now);
    this.#cached = undefined;
    return this.current();
  }
}
