import { Entity, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { BaseEntity, flagColumn, measureColumn, moneyColumn } from './base.entity';
import { User } from './user.entity';

@Entity({ tableName: 'printers' })
export class Printer extends BaseEntity {
  /** Owner; the database deletes the row with its user. */
  @ManyToOne({ entity: () => User, deleteRule: 'cascade', index: true })
  user!: User;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  brand?: string | null;

  @Property({ type: 'text', nullable: true })
  model?: string | null;

  /** Watts. */
  @Property(measureColumn())
  wattage!: number;

  /** Purchase price in EUR. */
  @Property(moneyColumn())
  cost!: number;

  @Property(measureColumn())
  lifetimeHours!: number;

  /** EUR per kWh. */
  @Property({ ...moneyColumn(), default: 0.32 })
  electricityRate: Opt<number> = 0.32;

  @Property(flagColumn(1))
  isActive: Opt<number> = 1;
}
