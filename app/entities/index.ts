import { AdminSetting } from './admin-setting.entity';
import { BaseEntity } from './base.entity';
import { ContactMessage } from './contact-message.entity';
import { Filament } from './filament.entity';
import { MailOutbox } from './mail-outbox.entity';
import { Marketplace } from './marketplace.entity';
import { Packaging } from './packaging.entity';
import { PendingUpload } from './pending-upload.entity';
import { Printer } from './printer.entity';
import { Project } from './project.entity';
import { RateLimit } from './rate-limit.entity';
import { Session } from './session.entity';
import { StripeEvent } from './stripe-event.entity';
import { ShippingProvider } from './shipping-provider.entity';
import { User } from './user.entity';

export {
  AdminSetting,
  BaseEntity,
  ContactMessage,
  Filament,
  MailOutbox,
  Marketplace,
  Packaging,
  PendingUpload,
  Printer,
  Project,
  RateLimit,
  Session,
  ShippingProvider,
  StripeEvent,
  User,
};
export { FILAMENT_MATERIALS, type FilamentMaterial } from './filament.entity';
export { MAIL_STATUSES, type MailStatus } from './mail-outbox.entity';
export { PACKAGING_TYPES, type PackagingType } from './packaging.entity';
export { normalizeEmail } from './user.entity';

// Every entity class, listed for MikroORM (no folder discovery).
export const allEntities = [
  User,
  Session,
  Printer,
  Filament,
  Packaging,
  ShippingProvider,
  Marketplace,
  Project,
  AdminSetting,
  MailOutbox,
  ContactMessage,
  RateLimit,
  PendingUpload,
  StripeEvent,
];
