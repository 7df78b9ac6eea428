import { Migration } from '@mikro-orm/migrations';

export class Migration20261121085306_accounts_mail extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "contact_messages" ("id" uuid not null default gen_random_uuid(), "name" text not null, "email" text not null, "subject" text not null, "message" text not null, "ip" text null, "created_at" timestamptz not null default now(), constraint "contact_messages_pkey" primary key ("id"));`);

    this.addSql(`create table "mail_outbox" ("id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "to" text not null, "reply_to" text null, "subject" text not null, "html" text not null, "text" text not null, "template" text not null, "status" text not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz not null default now(), "last_error" text null, "sent_at" timestamptz null, constraint "mail_outbox_pkey" primary key ("id"));`);
    this.addSql(`create index "mail_outbox_status_next_attempt_at_index" on "mail_outbox" ("status", "next_attempt_at");`);

    this.addSql(`create table "rate_limits" ("key" text not null, "window_start" timestamptz not null, "count" int not null, "expires_at" timestamptz not null, constraint "rate_limits_pkey" primary key ("key"));`);
    this.addSql(`create index "rate_limits_expires_at_index" on "rate_limits" ("expires_at");`);

    this.addSql(`alter table "users" add column "verification_expires" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "contact_messages" cascade;`);

    this.addSql(`drop table if exists "mail_outbox" cascade;`);

    this.addSql(`drop table if exists "rate_limits" cascade;`);

    this.addSql(`alter table "users" drop column "verification_expires";`);
  }

}
