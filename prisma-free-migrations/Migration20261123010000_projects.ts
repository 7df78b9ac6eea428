import { Migration } from '@mikro-orm/migrations';

export class Migration20261123010000_projects extends Migration {

  override async up(): Promise<void> {
    // Projects keep the VAT and the calculator fields without a column of their own (issue 12).
    this.addSql(`alter table "projects" add column "vat_percent" numeric(10,6) not null default 19, add column "extra_inputs" jsonb not null default '{}';`);
    // The list: one user's projects, newest change first.
    this.addSql(`create index "projects_user_id_updated_at_index" on "projects" ("user_id", "updated_at");`);
    // The search is a case-insensitive substring (`ilike '%q%'`), which only a trigram index serves.
    // pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it.
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create index "projects_name_trgm_index" on "projects" using gin ("name" gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "projects_name_trgm_index";`);
    this.addSql(`drop index if exists "projects_user_id_updated_at_index";`);
    this.addSql(`alter table "projects" drop column "vat_percent", drop column "extra_inputs";`);
  }

}
