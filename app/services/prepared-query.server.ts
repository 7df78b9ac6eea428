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

/**
 * One read of several that a page needs together: its SQL (with `?`
 * parameters), how its rows become the caller's value, and, when the order of
 * its rows matters, that order as an `order by` list over its columns as `t.<column>`.
 */
export type PreparedRead<T> = {
  sql: string;
  params: readonly unknown[];
  orderBy?: string;
  read: (rows: Record<string, unknown>[]) => T;
};

type ReadValues<R extends readonly PreparedRead<unknown>[]> = { [I in keyof R]: R[I] extends PreparedRead<infer T> ? T : never };

/**
 * Several reads in one prepared statement, so one round trip: each read's rows
 * come back as a JSON array (`json_agg`, in its `orderBy`), one column per read.
 * Every query costs the worker a socket write, a read and a pool checkout, and
 * PostgreSQL a round of its protocol: for the signed-in calculator's pickers,
 * defaults and project count that was a large part of the page's CPU time.
 * JSON gives numbers (also DECIMAL columns), strings, booleans and nested
 * objects as the driver would, except timestamps, which come as ISO text.
 */
export async function queryPreparedTogether<const R extends readonly PreparedRead<unknown>[]>(em: EntityManager, reads: R): Promise<ReadValues<R>> {
  const columns = reads.map(
    (read, index) => `(select coalesce(json_agg(t${read.orderBy ? ` order by ${read.orderBy}` : ''}), '[]'::json) from (${read.sql}) t) as "r${index}"`,
  );
  const [row] = await queryPrepared<Record<string, Record<string, unknown>[]>>(
    em,
    `select ${columns.join(', ')}`,
    reads.flatMap((read) => read.params),
  );
  return reads.map((read, index) => read.read(row[`r${index}`])) as ReadValues<R>;
}
