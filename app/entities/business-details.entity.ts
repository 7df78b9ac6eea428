import { Entity, OneToOne, Property, type Opt } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';
import { User } from './user.entity';

/**
 * A seller's business details for quotes (issue 26 §1): one row per user, a
 * table of its own so the users table stays about the account. A quote copies
 * what it needs from here when it is saved (see Quote.seller), so a change
 * here never changes a quote already made.
 */
@Entity({ tableName: 'business_details' })
export class BusinessDetails extends BaseEntity {
  @OneToOne({ entity: () => User, owner: true, deleteRule: 'cascade', unique: true })
  user!: User;

  @Property({ type: 'text' })
  businessName!: string;

  /** Street, postcode and town, one per line. */
  @Property({ type: 'text' })
  address!: string;

  /** For customers; the Reply-To of quote mails. */
  @Property({ type: 'text' })
  email!: string;

  @Property({ type: 'text', nullable: true })
  phone?: string | null;

  /** Steuernummer or USt-IdNr. */
  @Property({ type: 'text', nullable: true })
  taxId?: string | null;

  /** Kleinunternehmer nach § 19 UStG: no VAT on quotes. */
  @Property({ type: 'boolean', default: false })
  smallBusiness: Opt<boolean> = false;

  /** IBAN, BIC, bank; free text, optional. */
  @Property({ type: 'text', nullable: true })
  bankDetails?: string | null;

  /** Storage key of the logo (the image upload), optional. */
  @Property({ type: 'text', nullable: true })
  logoPath?: string | null;

  @Property({ type: 'integer', default: 14 })
  validityDays: Opt<number> = 14;

  @Property({ type: 'text', default: '' })
  closingText: Opt<string> = '';
}
