import { Entity, Property, Unique } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';

/**
 * One row per settings group (stripe_config, google_ads_config, email_config,
 * contact_config); `value` holds that group's JSON as text.
 */
@Entity({ tableName: 'admin_settings' })
export class AdminSetting extends BaseEntity {
  @Property({ type: 'text' })
  @Unique()
  key!: string;

  @Property({ type: 'text' })
  value!: string;
}
