import { Migration } from '@mikro-orm/migrations';

export class Migration20261123001337_pending_email_uploads extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "pending_uploads" ("key" text not null, "user_id" uuid not null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null, constraint "pending_uploads_pkey" primary key ("key"));`);
    this.addSql(`create index "pending_uploads_user_id_index" on "pending_uploads" ("user_id");`);
    this.addSql(`create index "pending_uploads_expires_at_index" on "pending_uploads" ("expires_at");`);

    this.addSql(`alter table "users" add column "pending_email" text null, add column "pending_email_token" text null, add column "pending_email_expires" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "pending_uploads" cascade;`);

    this.addSql(`alter table "users" drop column "pending_email", drop column "pending_email_token", drop column "pending_email_expires";`);
  }

}
