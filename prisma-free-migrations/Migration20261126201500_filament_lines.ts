import { Migration } from '@mikro-orm/migrations';

export class Migration20261126201500_filament_lines extends Migration {

  override async up(): Promise<void> {
    // Issue 23: a project's filament lines (1 to 16). Null = one line, the filament columns:
    // every project saved before keeps its figures without a rewrite.
    this.addSql(`alter table "projects" add column "filaments" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "projects" drop column "filaments";`);
  }

}
