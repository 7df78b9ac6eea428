import { Migration } from '@mikro-orm/migrations';

export class Migration20261121083717_initial extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "admin_settings" ("id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "key" text not null, "value" text not null, constraint "admin_settings_pkey" primary key ("id"));`);
    this.addSql(`alter table "admin_settings" add constraint "admin_settings_key_unique" unique ("key");`);

    this.addSql(`create table "sessions" ("sid" text not null, "sess" jsonb not null, "expire" timestamptz not null, constraint "sessions_pkey" primary key ("sid"));`);
    this.addSql(`create index "sessions_expire_index" on "sessions" ("expire");`);

    this.addSql(`create table "users" ("id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "email" text not null, "password" text not null, "email_verified" boolean not null default false, "verification_token" text null, "reset_password_token" text null, "reset_password_expires" timestamptz null, "first_name" text null, "last_name" text null, "profile_image_url" text null, "stripe_customer_id" text null, "stripe_subscription_id" text null, "is_premium" int not null default 0, "is_admin" int not null default 0, "subscription_status" text null, constraint "users_pkey" primary key ("id"));`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`alter table "users" add constraint "users_stripe_customer_id_unique" unique ("stripe_customer_id");`);
    this.addSql(`alter table "users" add constraint "users_stripe_subscription_id_unique" unique ("stripe_subscription_id");`);

    this.addSql(`create table "shipping_providers" ("id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "user_id" uuid not null, "name" text not null, "service" text null, "base_cost" numeric(12,4) not null, "description" text null, "is_active" int not null default 1, constraint "shipping_providers_pkey" primary key ("id"));`);
    this.addSql(`create index "shipping_providers_user_id_index" on "shipping_providers" ("user_id");`);

    this.addSql(`create table "printers" ("id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "user_id" uuid not null, "name" text not null, "brand" text null, "model" text null, "wattage" numeric(14,6) not null, "cost" numeric(12,4) not null, "lifetime_hours" numeric(14,6) not null, "electricity_rate" numeric(12,4) not null default 0.32, "is_active" int not null default 1, constraint "printers_pkey" primary key ("id"));`);
    this.addSql(`create index "printers_user_id_index" on "printers" ("user_id");`);

    this.addSql(`create table "packaging" ("id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "user_id" uuid not null, "name" text not null, "type" text not null default 'box', "cost" numeric(12,4) not null, "description" text null, "is_active" int not null default 1, constraint "packaging_pkey" primary key ("id"));`);
    this.addSql(`create index "packaging_user_id_index" on "packaging" ("user_id");`);

    this.addSql(`create table "marketplaces" ("id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "user_id" uuid not null, "name" text not null, "percentage_fee" numeric(10,6) not null default 0, "fixed_fee" numeric(12,4) not null default 0, "description" text null, "is_active" int not null default 1, constraint "marketplaces_pkey" primary key ("id"));`);
    this.addSql(`create index "marketplaces_user_id_index" on "marketplaces" ("user_id");`);

    this.addSql(`create table "filaments" ("id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "user_id" uuid not null, "name" text not null, "brand" text null, "material" text not null default 'PLA', "color" text null, "price_per_kg" numeric(12,4) not null, "is_active" int not null default 1, constraint "filaments_pkey" primary key ("id"));`);
    this.addSql(`create index "filaments_user_id_index" on "filaments" ("user_id");`);

    this.addSql(`create table "projects" ("id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "user_id" uuid not null, "name" text not null, "quantity" int not null, "filament_weight" numeric(14,6) not null, "filament_price_per_kg" numeric(12,4) not null, "print_time" numeric(14,6) not null, "printer_wattage" numeric(14,6) not null, "electricity_rate" numeric(12,4) not null, "preparation_time" numeric(14,6) not null, "post_processing_time" numeric(14,6) not null, "hourly_rate" numeric(12,4) not null, "packaging_cost" numeric(12,4) not null, "shipping_cost" numeric(12,4) not null, "marketplace_platform" text null, "marketplace_fee_percentage" numeric(10,6) not null, "marketplace_fee_fixed" numeric(12,4) not null default 0, "product_image_path" text null, "selected_filament_id" uuid null, "selected_printer_id" uuid null, "selected_packaging_id" uuid null, "selected_shipping_provider_id" uuid null, "selected_marketplace_id" uuid null, "profit_margin" numeric(10,6) not null, "target_price" numeric(12,4) not null, "printer_cost" numeric(12,4) not null default 300, "printer_lifetime_hours" numeric(14,6) not null default 3000, constraint "projects_pkey" primary key ("id"));`);
    this.addSql(`create index "projects_user_id_index" on "projects" ("user_id");`);
    this.addSql(`create index "projects_selected_filament_id_index" on "projects" ("selected_filament_id");`);
    this.addSql(`create index "projects_selected_printer_id_index" on "projects" ("selected_printer_id");`);
    this.addSql(`create index "projects_selected_packaging_id_index" on "projects" ("selected_packaging_id");`);
    this.addSql(`create index "projects_selected_shipping_provider_id_index" on "projects" ("selected_shipping_provider_id");`);
    this.addSql(`create index "projects_selected_marketplace_id_index" on "projects" ("selected_marketplace_id");`);

    this.addSql(`alter table "shipping_providers" add constraint "shipping_providers_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "printers" add constraint "printers_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "packaging" add constraint "packaging_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "marketplaces" add constraint "marketplaces_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "filaments" add constraint "filaments_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "projects" add constraint "projects_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "projects" add constraint "projects_selected_filament_id_foreign" foreign key ("selected_filament_id") references "filaments" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "projects" add constraint "projects_selected_printer_id_foreign" foreign key ("selected_printer_id") references "printers" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "projects" add constraint "projects_selected_packaging_id_foreign" foreign key ("selected_packaging_id") references "packaging" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "projects" add constraint "projects_selected_shipping_provider_id_foreign" foreign key ("selected_shipping_provider_id") references "shipping_providers" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "projects" add constraint "projects_selected_marketplace_id_foreign" foreign key ("selected_marketplace_id") references "marketplaces" ("id") on update cascade on delete set null;`);
  }

}
