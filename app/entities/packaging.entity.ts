import { Entity, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { BaseEntity, flagColumn, moneyColumn } from './base.entity';
import { User } from './user.entity';

/** Packaging kinds (spec §3); plain text in the database, validated by the form schema. */
export { PACKAGING_TYPES } from '../domain/library-definitions';
import { PACKAGING_TYPES } from '../domain/library-definitions';
export type PackagingType = (typeof PACKAGING_TYPES)[number];

@Entity({ tableName: 'packaging' })
export class Packaging extends BaseEntity {
  @ManyToOne({ entity: () => User, deleteRule: 'cascade', index: true })
  user!: User;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', default: 'box' })
  type: Opt<string> = 'box';

  /** EUR per package. */
  @Property(moneyColumn())
  cost!: number;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Property(flagColumn(1))
  isActive: Opt<number> = 1;
}
