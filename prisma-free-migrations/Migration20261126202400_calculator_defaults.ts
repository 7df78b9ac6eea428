import { Migration } from '@mikro-orm/migrations';

export class Migration20261126202400_calculator_defaults extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "calculator_defaults" ("id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "user_id" uuid not null, "hourly_rate" numeric(12,4) null, "profit_margin" numeric(10,6) null, "vat_percent" numeric(10,6) null, "small_business" boolean not null default false, "failure_rate" numeric(10,6) null, "default_printer_id" uuid null, "default_filament_id" uuid null, "default_packaging_id" uuid null, "default_shipping_provider_id" uuid null, "default_marketplace_id" uuid null, constraint "calculator_defaults_pkey" primary key ("id"));`);
    this.addSql(`alter table "calculator_defaults" add constraint "calculator_defaults_user_id_unique" unique ("user_id");`);
    this.addSql(`create index "calculator_defaults_default_printer_id_index" on "calculator_defaults" ("default_printer_id");`);
    this.addSql(`create index "calculator_defaults_default_filament_id_index" on "calculator_defaults" ("default_filament_id");`);
    this.addSql(`create index "calculator_defaults_default_packaging_id_index" on "calculator_defaults" ("default_packaging_id");`);
    this.addSql(`create index "calculator_defaults_default_shipping_provider_id_index" on "calculator_defaults" ("default_shipping_provider_id");`);
    this.addSql(`create index "calculator_defaults_default_marketplace_id_index" on "calculator_defaults" ("default_marketplace_id");`);

    this.addSql(`alter table "calculator_defaults" add constraint "calculator_defaults_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "calculator_defaults" add constraint "calculator_defaults_default_printer_id_foreign" foreign key ("default_printer_id") references "printers" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "calculator_defaults" add constraint "calculator_defaults_default_filament_id_foreign" foreign key ("default_filament_id") references "filaments" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "calculator_defaults" add constraint "calculator_defaults_default_packaging_id_foreign" foreign key ("default_packaging_id") references "packaging" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "calculator_defaults" add constraint "calculator_defaults_default_shipping_provider_id_foreign" foreign key ("default_shipping_provider_id") references "shipping_providers" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "calculator_defaults" add constraint "calculator_defaults_default_marketplace_id_foreign" foreign key ("default_marketplace_id") references "marketplaces" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "calculator_defaults" cascade;`);
  }

}
