import { DEFAULT_PRICES, type PriceTable } from '../../../../shared';

/** The team's price table: the operator's (PUT /admin/prices) or the default shipped in the catalog. */

export interface StoredPrices {
  table: PriceTable;
  /** True while no operator table was set. */
  isDefault: boolean;
  updatedAt: string | null;
}

export class PriceBook {
  #cached: StoredPrices | undefined;

  constructor(private readonly sql: SqlStorage) {}

  /** Read once per instance: only `replace` changes it, in this same object. */
  current(): StoredPrices {
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
