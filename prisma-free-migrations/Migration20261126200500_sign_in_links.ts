import { Migration } from '@mikro-orm/migrations';

export class Migration20261126200500_sign_in_links extends Migration {

  override async up(): Promise<void> {
    // Sign-in links by mail (issue 18 §2): single use, 15 minutes, only the token's SHA-256 is stored.
    this.addSql(`create table "sign_in_links" ("id" uuid not null default gen_random_uuid(), "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "user_id" uuid not null, "token_hash" text not null, "expires_at" timestamptz not null, "used_at" timestamptz null, constraint "sign_in_links_pkey" primary key ("id"));`);
    this.addSql(`create index "sign_in_links_user_id_index" on "sign_in_links" ("user_id");`);
    this.addSql(`alter table "sign_in_links" add constraint "sign_in_links_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "sign_in_links_expires_at_index" on "sign_in_links" ("expires_at");`);

    this.addSql(`alter table "sign_in_links" add constraint "sign_in_links_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sign_in_links" cascade;`);
  }

}
