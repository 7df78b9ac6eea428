import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Rows of a read query that runs on (nearly) every request, as a named
 * prepared statement.
 *
 * `em.execute()` inlines its parameters into the SQL text, so PostgreSQL
 * parses and plans each call anew: for the calculator's five-table picker
 * query that was more than half of its database time. Here the parameters go
 * separately (knex turns `?` into `$1…`) under a name derived from the text,
 * so each connection prepares the statement once and then only executes it
 * (PostgreSQL still re-plans when a parameter's value would change the plan).
 * Inside a transaction the statement runs on the transaction's connection.
 *
 * Only for SQL written in the code: the name is a hash of the text, and every
 * distinct text is kept prepared on every pooled connection.
 */
export async function queryPrepared<Row>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<Row[]> {
  let query = em.getKnex().raw(sql, [...params] as never[]).options({ name: statementName(sql) });
  const transaction = em.getTransactionContext();
  if (transaction) query = query.transacting(transaction);
  const result = (await query) as { rows: Row[] };
  return result.rows;
}

const names = new Map<string, string>();

function statementName(sql: string): string {
  let name = names.get(sql);
  if (!name) {
    // PostgreSQL keeps 63 bytes of a name.
    name = `dp_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
    names.set(sql, name);
  }
  return name;
}
