import { Migration } from '@mikro-orm/migrations';

/**
 * Security review: the list's price order and the CSV export priced every project of the
 * account per request. Each project now keeps the engine's figures of its saved inputs
 * (total costs, minimum price net and incl. VAT; null = no price possible), written by every
 * save, and the price order is an index-ordered page like the other orders.
 *
 * Existing rows get `prices_stored = false`; their figures are computed with the engine at
 * start right after the migrations (app/models/project-prices.server.ts, called from
 * scripts/lib/migrate.ts): a compiled migration file cannot import the engine.
 */
export class Migration20261126204500_stored_project_prices extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "projects" add column "total_costs" double precision null, add column "minimum_price" double precision null, add column "minimum_price_with_vat" double precision null, add column "prices_stored" boolean not null default false;`);
    this.addSql(`create index "projects_user_id_price_index" on "projects" ("user_id", "minimum_price_with_vat" asc nulls last, "id" asc);`);
    this.addSql(`create index "projects_user_id_price_desc_index" on "projects" ("user_id", "minimum_price_with_vat" desc nulls last, "id" asc);`);
    this.addSql(`create index "projects_prices_missing_index" on "projects" ("id") where not "prices_stored";`);
    // The newest-first order with its id tie-break in one index (the CSV's keyset batches).
    this.addSql(`drop index "projects_user_id_updated_at_index";`);
    this.addSql(`create index "projects_user_id_updated_at_id_index" on "projects" ("user_id", "updated_at", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "projects_user_id_price_index";`);
    this.addSql(`drop index "projects_user_id_price_desc_index";`);
    this.addSql(`drop index "projects_prices_missing_index";`);
    this.addSql(`drop index "projects_user_id_updated_at_id_index";`);
    this.addSql(`create index "projects_user_id_updated_at_index" on "projects" ("user_id", "updated_at");`);
    this.addSql(`alter table "projects" drop column "total_costs", drop column "minimum_price", drop column "minimum_price_with_vat", drop column "prices_stored";`);
  }

}
