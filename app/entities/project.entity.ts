import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { fieldDefaults } from '../calculator/fields';
import { BaseEntity, measureColumn, moneyColumn, rateColumn } from './base.entity';
import { Filament } from './filament.entity';
import { Marketplace } from './marketplace.entity';
import { Packaging } from './packaging.entity';
import { Printer } from './printer.entity';
import { ShippingProvider } from './shipping-provider.entity';
import { User } from './user.entity';

/**
 * A saved calculation. The numbers are a snapshot of the calculator form, so
 * a project keeps its price when a library item changes or is deleted; the
 * selected* references only remember which item was picked (SET NULL on
 * delete; indexed so that SET NULL does not scan every project). That they
 * belong to the same user is checked in models/, not by the foreign keys.
 */
@Entity({ tableName: 'projects' })
// The list is the owner's projects, newest change first (equal changes by id), a page at a time;
// the CSV reads them in that order in keyset batches, `(updated_at, id) < (…)` an index condition.
@Index({ name: 'projects_user_id_updated_at_id_index', properties: ['user', 'updatedAt', 'id'] })
// Search is a case-insensitive substring match (spec §5); a trigram index serves `ilike '%q%'`.
@Index({
  name: 'projects_name_trgm_index',
  expression: 'create index "projects_name_trgm_index" on "projects" using gin ("name" gin_trgm_ops)',
})
// Whether a project still shows an image: asked before its file is deleted (project saved without it,
// project deleted, the upload cleanup). Only rows with an image.
@Index({
  name: 'projects_product_image_path_index',
  expression: 'create index "projects_product_image_path_index" on "projects" ("product_image_path") where "product_image_path" is not null',
})
// The list's price order (issue 24 §4, security review): one index per direction, a project
// without a possible price last in both, equal prices by id. The price-desc index reads
// "desc nulls last", which a backward scan of the first could not give.
@Index({
  name: 'projects_user_id_price_index',
  expression: 'create index "projects_user_id_price_index" on "projects" ("user_id", "minimum_price_with_vat" asc nulls last, "id" asc)',
})
@Index({
  name: 'projects_user_id_price_desc_index',
  expression: 'create index "projects_user_id_price_desc_index" on "projects" ("user_id", "minimum_price_with_vat" desc nulls last, "id" asc)',
})
// Rows whose prices are not stored yet (before the backfill at start, scripts/lib/migrate.ts).
@Index({
  name: 'projects_prices_missing_index',
  expression: 'create index "projects_prices_missing_index" on "projects" ("id") where not "prices_stored"',
})
export class Project extends BaseEntity {
  @ManyToOne({ entity: () => User, deleteRule: 'cascade', index: true })
  user!: User;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'integer' })
  quantity!: number;

  /** Grams per piece. */
  @Property(measureColumn())
  filamentWeight!: number;

  @Property(moneyColumn())
  filamentPricePerKg!: number;

  /** Decimal hours (3.5 = 3 h 30 min). */
  @Property(measureColumn())
  printTime!: number;

  @Property(measureColumn())
  printerWattage!: number;

  /** EUR per kWh. */
  @Property(moneyColumn())
  electricityRate!: number;

  /** Minutes. */
  @Property(measureColumn())
  preparationTime!: number;

  /** Minutes. */
  @Property(measureColumn())
  postProcessingTime!: number;

  /** EUR per hour. */
  @Property(moneyColumn())
  hourlyRate!: number;

  @Property(moneyColumn())
  packagingCost!: number;

  @Property(moneyColumn())
  shippingCost!: number;

  @Property({ type: 'text', nullable: true })
  marketplacePlatform?: string | null;

  /** Percent, as in the calculator form (5 = 5 %), unlike Marketplace.percentageFee which is a fraction. */
  @Property(rateColumn())
  marketplaceFeePercentage!: number;

  @Property({ ...moneyColumn(), default: 0 })
  marketplaceFeeFixed: Opt<number> = 0;

  @Property({ type: 'text', nullable: true })
  productImagePath?: string | null;

  @ManyToOne({ entity: () => Filament, nullable: true, deleteRule: 'set null', index: true })
  selectedFilament?: Filament | null;

  @ManyToOne({ entity: () => Printer, nullable: true, deleteRule: 'set null', index: true })
  selectedPrinter?: Printer | null;

  @ManyToOne({ entity: () => Packaging, nullable: true, deleteRule: 'set null', index: true })
  selectedPackaging?: Packaging | null;

  @ManyToOne({ entity: () => ShippingProvider, nullable: true, deleteRule: 'set null', index: true })
  selectedShippingProvider?: ShippingProvider | null;

  @ManyToOne({ entity: () => Marketplace, nullable: true, deleteRule: 'set null', index: true })
  selectedMarketplace?: Marketplace | null;

  /** Percent (25 = 25 %). */
  @Property(rateColumn())
  profitMargin!: number;

  /** EUR; 0 means no target price. */
  @Property(moneyColumn())
  targetPrice!: number;

  // Spec §3 column defaults = the calculator's (field table).
  @Property({ ...moneyColumn(), default: fieldDefaults.printerCost })
  printerCost: Opt<number> = fieldDefaults.printerCost;

  @Property({ ...measureColumn(), default: fieldDefaults.printerLifetimeHours })
  printerLifetimeHours: Opt<number> = fieldDefaults.printerLifetimeHours;

  /**
   * Percent. Not in the spec's payload, but a seller under the small-business rule
   * or at 7 % must get back the VAT they saved; payloads without it mean 19.
   */
  @Property({ ...rateColumn(), default: fieldDefaults.vatPercent })
  vatPercent: Opt<number> = fieldDefaults.vatPercent;

  /**
   * Calculator fields that travel in the project payload (field table) but have no
   * column of their own, by payload name. A field added to the table is saved and
   * reopened without a migration.
   */
  @Property({ type: 'json', default: '{}' })
  extraInputs: Opt<Record<string, string | number | boolean>> = {};

  /**
   * Issue 23: the filament lines (1 to 16) as saved; null = one line, the filament
   * columns (every project saved before the lines existed). The columns then hold
   * the total grams and the grams-weighted € per kg. Values are a snapshot: a
   * library filament deleted later leaves them. Validated when read
   * (models/projects.server.ts `projectFilamentLines`).
   */
  @Property({ type: 'json', nullable: true })
  filaments?: unknown[] | null;

  /**
   * The engine's figures of the saved inputs, stored with every save (create, edit, API,
   * copy) so the list's price order and the CSV read them from SQL instead of pricing
   * every project per request (security review). Exact doubles, so the shown figures are
   * the engine's to the cent. Null: no price possible (the marketplace fee takes the whole
   * sale). A project's figures are what it was saved with (its numbers are a snapshot too);
   * an engine change that moves prices must reset `pricesStored` in a migration so the
   * start recomputes them (models/project-prices.server.ts).
   */
  @Property({ type: 'double', nullable: true })
  totalCosts?: number | null;

  @Property({ type: 'double', nullable: true })
  minimumPrice?: number | null;

  @Property({ type: 'double', nullable: true })
  minimumPriceWithVat?: number | null;

  /** False until the figures above are the engine's (rows from before the columns; raw SQL inserts). */
  @Property({ type: 'boolean', default: false })
  pricesStored: Opt<boolean> = false;
}
