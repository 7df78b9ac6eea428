import { AdminAuditEntry } from './admin-audit-entry.entity';
import { AdminSetting } from './admin-setting.entity';
import { BaseEntity } from './base.entity';
import { BusinessDetails } from './business-details.entity';
import { CalculatorDefaults } from './calculator-defaults.entity';
import { ContactMessage } from './contact-message.entity';
import { Filament } from './filament.entity';
import { MailOutbox } from './mail-outbox.entity';
import { Marketplace } from './marketplace.entity';
import { Packaging } from './packaging.entity';
import { PendingUpload } from './pending-upload.entity';
import { Printer } from './printer.entity';
import { Project } from './project.entity';
import { ProjectCount } from './project-count.entity';
import { Quote } from './quote.entity';
import { QuoteCounter } from './quote-counter.entity';
import { RateLimit } from './rate-limit.entity';
import { Session } from './session.entity';
import { StripeEvent } from './stripe-event.entity';
import { ShippingProvider } from './shipping-provider.entity';
import { SignInLink } from './sign-in-link.entity';
import { User } from './user.entity';

export {
  AdminAuditEntry,
  AdminSetting,
  BaseEntity,
  BusinessDetails,
  CalculatorDefaults,
  ContactMessage,
  Filament,
  MailOutbox,
  Marketplace,
  Packaging,
  PendingUpload,
  Printer,
  Project,
  ProjectCount,
  Quote,
  QuoteCounter,
  RateLimit,
  Session,
  ShippingProvider,
  SignInLink,
  StripeEvent,
  User,
};
export { FILAMENT_MATERIALS, type FilamentMaterial } from './filament.entity';
export { MAIL_STATUSES, type MailAttachment, type MailStatus } from './mail-outbox.entity';
export { QUOTE_LINE_KINDS, QUOTE_STATUSES, type QuoteLine, type QuoteLineKind, type QuoteSeller, type QuoteStatus } from './quote.entity';
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
  SignInLink,
  AdminAuditEntry,
  BusinessDetails,
  CalculatorDefaults,
  Quote,
  QuoteCounter,
  StripeEvent,
  ProjectCount,
];
