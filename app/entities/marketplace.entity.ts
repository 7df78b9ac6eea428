import { Entity, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { BaseEntity, flagColumn, moneyColumn, rateColumn } from './base.entity';
import { User } from './user.entity';

@Entity({ tableName: 'marketplaces' })
export class Marketplace extends BaseEntity {
  @ManyToOne({ entity: () => User, deleteRule: 'cascade', index: true })
  user!: User;

  @Property({ type: 'text' })
  name!: string;

  /** Decimal fraction of the price: 0.05 means 5 % (the calculator shows it times 100). */
  @Property({ ...rateColumn(), default: 0 })
  percentageFee: Opt<number> = 0;

  /** EUR per sale. */
  @Property({ ...moneyColumn(), default: 0 })
  fixedFee: Opt<number> = 0;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Property(flagColumn(1))
  isActive: Opt<number> = 1;
}
