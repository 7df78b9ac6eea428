import { Migration } from '@mikro-orm/migrations';

export class Migration20261126200000_premium extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "stripe_events" ("id" text not null, "type" text not null, "created" bigint not null, "received_at" timestamptz not null default now(), constraint "stripe_events_pkey" primary key ("id"));`);

    this.addSql(`alter table "contact_messages" add column "is_premium" boolean not null default false;`);

    this.addSql(`alter table "users" add column "subscription_period_end" timestamptz null, add column "subscription_cancel_at_period_end" boolean not null default false, add column "subscription_state_at" bigint null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "stripe_events" cascade;`);

    this.addSql(`alter table "contact_messages" drop column "is_premium";`);

    this.addSql(`alter table "users" drop column "subscription_period_end", drop column "subscription_cancel_at_period_end", drop column "subscription_state_at";`);
  }

}
