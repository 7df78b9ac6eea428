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

  // The printer dialog's defaults (spec §9: 200 W, 300 €, 3000 h, 0,32 €/kWh) are
  // `printerDefaults` from the calculator's field table; the columns below keep the
  // spec's storage (only the electricity rate has a column default).

  /** Watts. */
  @Property(measureColumn())
  wattage!: number;

  /** Purchase price in EUR. */
  @Property(moneyColumn())
  cost!: number;

  @Property(measureColumn())
  lifetimeHours!: number;

  /** EUR per kWh (column default from the field table). */
  @Property({ ...moneyColumn(), default: printerDefaults.electricityRate })
  electricityRate: Opt<number> = printerDefaults.electricityRate;

  @Property(flagColumn(1))
  isActive: Opt<number> = 1;
}
