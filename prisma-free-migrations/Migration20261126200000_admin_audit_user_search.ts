import { Migration } from '@mikro-orm/migrations';

export class Migration20261126200000_admin_audit_user_search extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "admin_audit_log" ("id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "actor_id" uuid null, "actor_email" text not null, "action" text not null, "target" text null, "details" jsonb not null default '{}', constraint "admin_audit_log_pkey" primary key ("id"));`);
    this.addSql(`create index "admin_audit_log_created_at_index" on "admin_audit_log" ("created_at");`);

    this.addSql(`create index "users_created_at_index" on "users" ("created_at");`);
    this.addSql(`create index "users_search_trgm_index" on "users" using gin ((lower("email" || ' ' || coalesce("first_name", '') || ' ' || coalesce("last_name", ''))) gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "admin_audit_log" cascade;`);

    this.addSql(`drop index "users_created_at_index";`);
    this.addSql(`drop index "users_search_trgm_index";`);
  }

}
