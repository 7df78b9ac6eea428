import { Migration } from '@mikro-orm/migrations';

export class Migration20261126203000_last_sign_in extends Migration {

  override async up(): Promise<void> {
    // Issue 24 §2: the first sign-in is greeted 'Willkommen, …!', later ones 'Willkommen zurück, …!'.
    this.addSql(`alter table "users" add column "last_sign_in_at" timestamptz null;`);
    // Confirmed accounts from before this column are returning users; their creation time stands in.
    this.addSql(`update "users" set "last_sign_in_at" = "created_at" where "email_verified" = true;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "users" drop column "last_sign_in_at";`);
  }

}
