import { Entity, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { BaseEntity, flagColumn, moneyColumn } from './base.entity';
import { User } from './user.entity';

@Entity({ tableName: 'shipping_providers' })
export class ShippingProvider extends BaseEntity {
  @ManyToOne({ entity: () => User, deleteRule: 'cascade', index: true })
  user!: User;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  service?: string | null;

  /** EUR per shipment. */
  @Property(moneyColumn())
  baseCost!: number;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Property(flagColumn(1))
  isActive: Opt<number> = 1;
}
