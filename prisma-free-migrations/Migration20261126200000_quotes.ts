import { Migration } from '@mikro-orm/migrations';

export class Migration20261126200000_quotes extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "quote_counters" ("user_id" uuid not null, "year" int not null, "last_number" int not null, constraint "quote_counters_pkey" primary key ("user_id", "year"));`);

    this.addSql(`create table "quotes" ("id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "user_id" uuid not null, "project_id" uuid null, "number" text not null, "status" text not null default 'draft', "quote_date" date not null, "valid_until" date not null, "customer_name" text not null, "customer_address" text null, "customer_email" text null, "lines" jsonb not null, "discount_basis_points" int not null default 0, "seller" jsonb not null, "closing_text" text not null default '', "total_gross_cents" int not null default 0, "sent_at" timestamptz null, constraint "quotes_pkey" primary key ("id"));`);
    this.addSql(`create index "quotes_project_id_index" on "quotes" ("project_id");`);
    this.addSql(`create index "quotes_user_id_created_at_index" on "quotes" ("user_id", "created_at");`);
    this.addSql(`alter table "quotes" add constraint "quotes_user_id_number_unique" unique ("user_id", "number");`);

    this.addSql(`create table "business_details" ("id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "user_id" uuid not null, "business_name" text not null, "address" text not null, "email" text not null, "phone" text null, "tax_id" text null, "small_business" boolean not null default false, "bank_details" text null, "logo_path" text null, "validity_days" int not null default 14, "closing_text" text not null default '', constraint "business_details_pkey" primary key ("id"));`);
    this.addSql(`alter table "business_details" add constraint "business_details_user_id_unique" unique ("user_id");`);

    this.addSql(`alter table "quote_counters" add constraint "quote_counters_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "quotes" add constraint "quotes_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "quotes" add constraint "quotes_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "business_details" add constraint "business_details_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "mail_outbox" add column "attachments" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "quote_counters" cascade;`);

    this.addSql(`drop table if exists "quotes" cascade;`);

    this.addSql(`drop table if exists "business_details" cascade;`);

    this.addSql(`alter table "mail_outbox" drop column "attachments";`);
  }

}
