import { Entity, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { BaseEntity, flagColumn, moneyColumn } from './base.entity';
import { User } from './user.entity';

/**
 * Material options offered by the forms (spec §3). Stored as plain text, not
 * a database enum, so adding a material is a code change without a migration;
 * the form schema validates against this list.
 */
export { FILAMENT_MATERIALS } from '../domain/library-definitions';
import { FILAMENT_MATERIALS } from '../domain/library-definitions';
export type FilamentMaterial = (typeof FILAMENT_MATERIALS)[number];

@Entity({ tableName: 'filaments' })
export class Filament extends BaseEntity {
  @ManyToOne({ entity: () => User, deleteRule: 'cascade', index: true })
  user!: User;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  brand?: string | null;

  @Property({ type: 'text', default: 'PLA' })
  material: Opt<string> = 'PLA';

  @Property({ type: 'text', nullable: true })
  color?: string | null;

  /** EUR per kg. */
  @Property(moneyColumn())
  pricePerKg!: number;

  @Property(flagColumn(1))
  isActive: Opt<number> = 1;
}
