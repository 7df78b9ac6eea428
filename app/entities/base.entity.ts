import { DecimalType, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/**
 * Columns shared by every owned table: uuid id and timestamps.
 *
 * The id is generated in code (so an entity knows its id before flush and can
 * be referenced in the same unit of work) and also defaults to
 * gen_random_uuid() in the database (built into PostgreSQL 13+, no pgcrypto),
 * so rows inserted by raw SQL get one too.
 *
 * Every property names its `type` explicitly: esbuild (tsx, vite, vitest)
 * emits no decorator metadata, so nothing can be inferred from TS types.
 */
export abstract class BaseEntity {
  @PrimaryKey({ type: 'uuid', defaultRaw: 'gen_random_uuid()' })
  id: Opt<string> = crypto.randomUUID();

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Opt<Date> = new Date();
}

/*
 * Numeric columns. PostgreSQL `numeric` is exact (no 0.1 + 0.2 drift in the
 * database); the pg driver returns it as a string, so DecimalType('number')
 * turns it into a JS number on the way in. Each helper returns fresh options
 * because MikroORM stores the owning property on the Type instance.
 */

/** EUR amounts and EUR-per-unit prices (cost, pricePerKg, electricity EUR/kWh): 4 decimals, up to 99 999 999.9999. */
export const moneyColumn = () => ({ type: new DecimalType('number'), precision: 12, scale: 4 });

/** Fractions and percentages (0.105 = 10.5 % fee, profit margin 25 = 25 %): 6 decimals, up to 9 999.999999. */
export const rateColumn = () => ({ type: new DecimalType('number'), precision: 10, scale: 6 });

/**
 * Physical quantities that the forms accept as decimals: watts, grams, hours,
 * minutes. 6 decimals so a print time entered as minutes (10 min = 0.166667 h)
 * keeps its precision.
 */
export const measureColumn = () => ({ type: new DecimalType('number'), precision: 14, scale: 6 });

/**
 * isActive / isPremium / isAdmin are integers (1 = yes, 0 = no) rather than
 * booleans: the spec and the JSON API speak 1/0 (isActive default 1, the admin
 * page accepts isAdmin 1 or true), so the stored value is what the API returns.
 */
export const flagColumn = (defaultValue: 0 | 1) => ({ type: 'integer', default: defaultValue }) as const;
