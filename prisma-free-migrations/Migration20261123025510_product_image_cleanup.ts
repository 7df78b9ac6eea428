import { Migration } from '@mikro-orm/migrations';

export class Migration20261123025510_product_image_cleanup extends Migration {

  override async up(): Promise<void> {
    // Product images not yet saved with a project are pending uploads too (issue 12 §4); the kind keeps the
    // profile picture's quota apart from theirs. Existing rows are profile picture uploads.
    this.addSql(`alter table "pending_uploads" add column "kind" text not null default 'profile';`);

    // "Does a project still show this image?" is asked before an image file is deleted.
    this.addSql(`create index "projects_product_image_path_index" on "projects" ("product_image_path") where "product_image_path" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "pending_uploads" drop column "kind";`);

    this.addSql(`drop index "projects_product_image_path_index";`);
  }

}
