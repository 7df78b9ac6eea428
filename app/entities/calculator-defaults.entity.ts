import { Entity, ManyToOne, OneToOne, Property, type Opt } from '@mikro-orm/core';
import { BaseEntity, moneyColumn, rateColumn } from './base.entity';
import { Filament } from './filament.entity';
import { Marketplace } from './marketplace.entity';
import { Packaging } from './packaging.entity';
import { Printer } from './printer.entity';
import { ShippingProvider } from './shipping-provider.entity';
import { User } from './user.entity';

/**
 * 'Meine Standardwerte' (issue 24 §4): what a seller's new calculation starts from.
 * One row per user, a table of its own (the users table stays about the account).
 * A number left empty (null) means the calculator's own default; a default library
 * item is forgotten when the item is deleted (SET NULL).
 */
@Entity({ tableName: 'calculator_defaults' })
export class CalculatorDefaults extends BaseEntity {
  @OneToOne({ entity: () => User, owner: true, deleteRule: 'cascade', unique: true })
  user!: User;

  /** EUR per hour. */
  @Property({ ...moneyColumn(), nullable: true })
  hourlyRate?: number | null;

  /** Percent. */
  @Property({ ...rateColumn(), nullable: true })
  profitMargin?: number | null;

  /** Percent. */
  @Property({ ...rateColumn(), nullable: true })
  vatPercent?: number | null;

  /** § 19 UStG: no VAT. */
  @Property({ type: 'boolean', default: false })
  smallBusiness: Opt<boolean> = false;

  /** Percent. */
  @Property({ ...rateColumn(), nullable: true })
  failureRate?: number | null;

  @ManyToOne({ entity: () => Printer, nullable: true, deleteRule: 'set null', index: true })
  defaultPrinter?: Printer | null;

  @ManyToOne({ entity: () => Filament, nullable: true, deleteRule: 'set null', index: true })
  defaultFilament?: Filament | null;

  @ManyToOne({ entity: () => Packaging, nullable: true, deleteRule: 'set null', index: true })
  defaultPackaging?: Packaging | null;

  @ManyToOne({ entity: () => ShippingProvider, nullable: true, deleteRule: 'set null', index: true })
  defaultShippingProvider?: ShippingProvider | null;

  @ManyToOne({ entity: () => Marketplace, nullable: true, deleteRule: 'set null', index: true })
  defaultMarketplace?: Marketplace | null;
}
