import { Migration } from '@mikro-orm/migrations';

/**
 * The admin's users tab with 100,000 accounts (issue 20): each user's number
 * of projects kept in `project_counts` by statement triggers on `projects`
 * instead of counted per row and page view (20 ms for one account with
 * 100,000 projects), and the newest-first order (created_at desc, id desc)
 * served by one index in that order.
 */
export class Migration20261126203000_admin_users_fast extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "project_counts" ("user_id" uuid not null, "count" int not null default 0, constraint "project_counts_pkey" primary key ("user_id"));`);
    this.addSql(`alter table "project_counts" add constraint "project_counts_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    // One statement of inserts, deletes or owner changes adjusts each owner's row once (transition tables),
    // so a bulk insert of 100,000 projects costs one upsert, not 100,000. The upsert's row lock queues
    // concurrent changes for the same owner, so the count never loses one.
    this.addSql(`create function "project_counts_add"() returns trigger language plpgsql as $$
begin
  insert into "project_counts" ("user_id", "count")
    select "user_id", count(*) from "new_projects" group by "user_id" order by "user_id"
    on conflict ("user_id") do update set "count" = "project_counts"."count" + excluded."count";
  return null;
end $$;`);
    this.addSql(`create function "project_counts_remove"() returns trigger language plpgsql as $$
begin
  update "project_counts" c set "count" = greatest(0, c."count" - d."n")
    from (select "user_id", count(*) as "n" from "old_projects" group by "user_id") d
    where c."user_id" = d."user_id";
  return null;
end $$;`);
    this.addSql(`create function "project_counts_move"() returns trigger language plpgsql as $$
begin
  update "project_counts" c set "count" = greatest(0, c."count" - d."n")
    from (select o."user_id", count(*) as "n" from "old_projects" o join "new_projects" n on n."id" = o."id"
          where n."user_id" <> o."user_id" group by o."user_id") d
    where c."user_id" = d."user_id";
  insert into "project_counts" ("user_id", "count")
    select n."user_id", count(*) from "new_projects" n join "old_projects" o on o."id" = n."id"
    where n."user_id" <> o."user_id" group by n."user_id" order by n."user_id"
    on conflict ("user_id") do update set "count" = "project_counts"."count" + excluded."count";
  return null;
end $$;`);
    this.addSql(`create trigger "projects_count_insert" after insert on "projects" referencing new table as "new_projects" for each statement execute function "project_counts_add"();`);
    this.addSql(`create trigger "projects_count_delete" after delete on "projects" referencing old table as "old_projects" for each statement execute function "project_counts_remove"();`);
    this.addSql(`create trigger "projects_count_update" after update on "projects" referencing old table as "old_projects" new table as "new_projects" for each statement execute function "project_counts_move"();`);
    // TRUNCATE fires no row changes: it empties the counts with the projects.
    this.addSql(`create function "project_counts_clear"() returns trigger language plpgsql as $$
begin
  delete from "project_counts";
  return null;
end $$;`);
    this.addSql(`create trigger "projects_count_truncate" after truncate on "projects" for each statement execute function "project_counts_clear"();`);
    this.addSql(`insert into "project_counts" ("user_id", "count") select "user_id", count(*) from "projects" group by "user_id";`);

    this.addSql(`drop index "users_created_at_index";`);
    this.addSql(`create index "users_created_at_id_index" on "users" ("created_at" desc, "id" desc);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "projects_count_insert" on "projects";`);
    this.addSql(`drop trigger if exists "projects_count_delete" on "projects";`);
    this.addSql(`drop trigger if exists "projects_count_update" on "projects";`);
    this.addSql(`drop trigger if exists "projects_count_truncate" on "projects";`);
    this.addSql(`drop function if exists "project_counts_add"(), "project_counts_remove"(), "project_counts_move"(), "project_counts_clear"();`);
    this.addSql(`drop table if exists "project_counts" cascade;`);

    this.addSql(`drop index "users_created_at_id_index";`);
    this.addSql(`create index "users_created_at_index" on "users" ("created_at");`);
  }

}
