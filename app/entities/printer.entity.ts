import { Entity, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { printerDefaults } from '../calculator/fields';
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

  // Defaults (spec §9 "Printer dialog defaults") are the calculator's own, from its field table.

  /** Watts. */
  @Property(measureColumn())
  wattage: Opt<number> = printerDefaults.wattage;

  /** Purchase price in EUR. */
  @Property(moneyColumn())
  cost: Opt<number> = printerDefaults.cost;

  @Property(measureColumn())
  lifetimeHours: Opt<number> = printerDefaults.lifetimeHours;

  /** EUR per kWh. */
  @Property({ ...moneyColumn(), default: printerDefaults.electricityRate })
  electricityRate: Opt<number> = printerDefaults.electricityRate;

  @Property(flagColumn(1))
  isActive: Opt<number> = 1;
}
