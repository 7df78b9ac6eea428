import { Entity, ManyToOne, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { User } from './user.entity';

/**
 * How many projects each user has, for the admin's users tab: counting a
 * user's projects on every page view cost 20 ms for an account with 100,000
 * of them. Kept by statement triggers on `projects` (insert, delete, a changed
 * owner), created in Migration20261126203000_admin_users_fast, so every way a
 * project is added or removed (the app, a cascade, SQL by hand) counts; the
 * app never writes it. A user without a row has no projects.
 */
@Entity({ tableName: 'project_counts' })
export class ProjectCount {
  [PrimaryKeyProp]?: 'user';

  @ManyToOne({ entity: () => User, primary: true, deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'integer', default: 0 })
  count!: number;
}
