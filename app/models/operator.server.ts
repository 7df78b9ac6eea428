import { getOperatorConfig } from '../services/admin-settings.server';
import type { RequestContext } from '../services/request-context.server';
import { findContactRecipient } from './contact.server';

/** The operator details the legal pages and /kontakt show (admin tab 'Betreiber'); null until they are filled in. */
export type PublicOperator = {
  name: string;
  addressLines: string[];
  phone: string;
  email: string;
  responsiblePerson: string;
  register: string;
  vatId: string;
};

export async function getPublicOperator(ctx: Pick<RequestContext, 'em'>): Promise<PublicOperator | null> {
  const config = await getOperatorConfig(ctx.em);
  if (!config.name || !config.address || !config.email) return null;
  return {
    name: config.name,
    addressLines: config.address.split(/\r?\n/).map((line) => line.trim()).filter(Boolean),
    phone: config.phone,
    email: config.email,
    responsiblePerson: config.responsiblePerson,
    register: config.register,
    vatId: config.vatId,
  };
}

/** Whether anyone reads contact messages (settings address, CONTACT_EMAIL or an admin): only then is an answer time promised. */
export async function isContactAnswered(ctx: Pick<RequestContext, 'em'>): Promise<boolean> {
  return (await findContactRecipient(ctx.em)) !== null;
}
