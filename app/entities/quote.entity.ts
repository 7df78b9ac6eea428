import { Entity, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';
import { Project } from './project.entity';
import { User } from './user.entity';

export const QUOTE_STATUSES = ['draft', 'sent', 'accepted', 'rejected'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export const QUOTE_LINE_KINDS = ['product', 'shipping', 'setup', 'free'] as const;
export type QuoteLineKind = (typeof QUOTE_LINE_KINDS)[number];

/** One line as stored (validated JSON, see models/quote-totals.ts). Money in cents. */
export type QuoteLine = {
  kind: QuoteLineKind;
  description: string;
  quantity: number;
  /** Unit price incl. VAT (an end price, what the customer pays), in cents. */
  unitPriceCents: number;
  /** Percent (19, 7, 0); 0 for every line of a § 19 seller. */
  vatRate: number;
};

/** The seller's details as they were when the quote was saved. */
export type QuoteSeller = {
  businessName: string;
  address: string;
  email: string;
  phone: string | null;
  taxId: string | null;
  smallBusiness: boolean;
  bankDetails: string | null;
  logoPath: string | null;
};

/**
 * A quote (Angebot, issue 26 §2). A snapshot: the lines, prices and the
 * seller's details live in the row itself; the project reference only
 * remembers where it came from (SET NULL when the project is deleted).
 * `number` is `A-<year>-<sequence>` (QuoteCounter), unique per seller.
 * 'Abgelaufen' is not stored: a sent quote past `validUntil` is shown as expired.
 */
@Entity({ tableName: 'quotes' })
@Unique({ name: 'quotes_user_id_number_unique', properties: ['user', 'number'] })
@Index({ name: 'quotes_user_id_created_at_index', properties: ['user', 'createdAt'] })
export class Quote extends BaseEntity {
  @ManyToOne({ entity: () => User, deleteRule: 'cascade' })
  user!: User;

  @ManyToOne({ entity: () => Project, nullable: true, deleteRule: 'set null', index: true })
  project?: Project | null;

  @Property({ type: 'text' })
  number!: string;

  @Property({ type: 'text', default: 'draft' })
  status: Opt<QuoteStatus> = 'draft';

  /** YYYY-MM-DD. */
  @Property({ type: 'string', columnType: 'date' })
  quoteDate!: string;

  /** YYYY-MM-DD. */
  @Property({ type: 'string', columnType: 'date' })
  validUntil!: string;

  @Property({ type: 'text' })
  customerName!: string;

  @Property({ type: 'text', nullable: true })
  customerAddress?: string | null;

  @Property({ type: 'text', nullable: true })
  customerEmail?: string | null;

  @Property({ type: 'json' })
  lines!: QuoteLine[];

  /** Discount on the whole quote in basis points (1000 = 10 %). */
  @Property({ type: 'integer', default: 0 })
  discountBasisPoints: Opt<number> = 0;

  @Property({ type: 'json' })
  seller!: QuoteSeller;

  @Property({ type: 'text', default: '' })
  closingText: Opt<string> = '';

  /** Total incl. VAT in cents, kept with the lines (list and search read it without the lines). */
  @Property({ type: 'integer', default: 0 })
  totalGrossCents: Opt<number> = 0;

  @Property({ type: 'datetime', nullable: true })
  sentAt?: Date | null;
}
