import { DecimalType, type EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryPrepared } from './prepared-query.server';

/**
 * Read-only lists straight from SQL into plain objects keyed by property
 * name, for pages that show many rows and change none (the library pages, the
 * projects list). Hydrating entities (identity map, references, change
 * tracking) cost more than the query itself there. Column names come from the
 * ORM's metadata, so a renamed column cannot drift; DECIMAL columns, which the
 * driver returns as strings, become numbers as the entities would make them.
 */
export type PlainRowTable = {
  /** The quoted table name. */
  table: string;
  /** The quoted column of a property. */
  column: (property: string) => string;
  /** Reads `select <properties> from <table> <tail>` (tail: where / order by / limit with `?` parameters). */
  select: (properties: readonly string[], tail: string, params: readonly unknown[]) => Promise<Record<string, unknown>[]>;
};

export function plainRowTable(em: EntityManager, entity: EntityName<object>): PlainRowTable {
  const meta = em.getMetadata().get(typeof entity === 'string' ? entity : (entity as { name: string }).name);
  const property = (name: string) => {
    const prop = meta.properties[name as never] as { fieldNames: string[]; customType?: unknown } | undefined;
    if (!prop) throw new Error(`${meta.className} has no property ${name}`);
    return prop;
  };
  const column = (name: string) => `"${property(name).fieldNames[0]}"`;
  return {
    table: `"${meta.tableName}"`,
    column,
    async select(properties, tail, params) {
      const decimals = properties.filter((name) => property(name).customType instanceof DecimalType);
      const list = properties.map((name) => `${column(name)} as "${name}"`).join(', ');
      const rows = await queryPrepared<Record<string, unknown>>(em, `select ${list} from "${meta.tableName}" ${tail}`, params);
      for (const row of rows) {
        for (const name of decimals) if (row[name] !== null && row[name] !== undefined) row[name] = Number(row[name]);
      }
      return rows;
    },
  };
}
