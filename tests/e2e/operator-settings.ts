import pg from 'pg';
import { E2E_DATABASE_URL } from './server-env';

/**
 * The operator details and contact address every e2e run works with. The
 * database is shared by the parallel tests, so the admin test saves exactly
 * these values through the form, and the contact test writes them first:
 * whatever runs first, the pages show the same thing.
 */
export const E2E_OPERATOR = {
  name: 'Druckpreis – Beispiel GmbH',
  address: 'Beispielweg 5\n12345 Beispielstadt\nDeutschland',
  phone: '+49 30 1234567',
  email: 'support@druckpreis.de',
  responsiblePerson: 'Erika Beispiel',
  register: 'Amtsgericht Beispielstadt, HRB 12345',
  vatId: 'DE123456789',
};
export const E2E_CONTACT_EMAIL = 'support@druckpreis.de';

export async function ensureOperatorAndContact(): Promise<void> {
  const client = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await client.connect();
  try {
    const upsert = `insert into admin_settings (key, value) values ($1, $2)
                    on conflict (key) do update set value = excluded.value, updated_at = now()`;
    await client.query(upsert, ['operator_config', JSON.stringify(E2E_OPERATOR)]);
    await client.query(upsert, ['contact_config', JSON.stringify({ contactEmail: E2E_CONTACT_EMAIL, enabled: true })]);
  } finally {
    await client.end();
  }
}

/** A confirmed account straight in the database (no session): someone for the admin to find and delete. */
export async function insertUser(email: string, firstName: string): Promise<string> {
  const client = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `insert into users (email, password, email_verified, first_name, last_name) values ($1, 'x', true, $2, 'Löschbar') returning id`,
      [email, firstName],
    );
    return rows[0].id;
  } finally {
    await client.end();
  }
}
