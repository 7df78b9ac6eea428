import { MikroORM, UniqueConstraintViolationException, wrap } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrmConfig } from '../../mikro-orm.config';
import { Marketplace, Printer, Project, Session, User } from '../../app/entities';
import { runMigrations } from '../../scripts/lib/migrate';
import { createTestDatabase } from '../setup/database';

const TABLES = [
  'admin_settings',
  'contact_messages',
  'filaments',
  'mail_outbox',
  'marketplaces',
  'packaging',
  'printers',
  'projects',
  'rate_limits',
  'sessions',
  'shipping_providers',
  'users',
];

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: MikroORM;
let applied: string[];

beforeAll(async () => {
  database = await createTestDatabase('migrations');
  applied = await runMigrations(database.url);
  orm = await MikroORM.init(createOrmConfig(database.url));
});

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

const em = () => orm.em.fork();

let emailCounter = 0;
function newUser(overrides: Partial<{ email: string }> = {}) {
  return em().create(User, {
    email: overrides.email ?? `user${++emailCounter}@example.com`,
    password: '$2b$12$notarealhashnotarealhashnotarealhashnotarealhashnot',
  });
}

function projectFields(user: User) {
  return {
    user,
    name: 'Vase',
    quantity: 2,
    filamentWeight: 25,
    filamentPricePerKg: 24.99,
    printTime: 3.5,
    printerWattage: 200,
    electricityRate: 0.32,
    preparationTime: 15,
    postProcessingTime: 10,
    hourlyRate: 15,
    packagingCost: 0.5,
    shippingCost: 4.95,
    marketplaceFeePercentage: 5,
    profitMargin: 25,
    targetPrice: 0,
  };
}

describe('migrations', () => {
  it('applies the initial migration to an empty database', () => {
    expect(applied.length).toBeGreaterThanOrEqual(1);
    expect(applied[0]).toMatch(/^Migration\d{14}_initial$/);
  });

  it('leaves no difference between the entities and the migrated schema', async () => {
    expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
    // Also compares the entities with the committed snapshot, as migration:create would.
    expect(await orm.getMigrator().checkMigrationNeeded()).toBe(false);
  });

  it('creates all tables', async () => {
    const rows: { table_name: string }[] = await orm.em
      .getConnection()
      .execute(`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
    const names = rows.map((row) => row.table_name);
    for (const table of TABLES) expect(names).toContain(table);
  });

  it('declares ON DELETE CASCADE for owners and SET NULL for project selections', async () => {
    const rows: { table_name: string; column_name: string; delete_rule: string }[] = await orm.em.getConnection().execute(`
      select kcu.table_name, kcu.column_name, rc.delete_rule
      from information_schema.referential_constraints rc
      join information_schema.key_column_usage kcu on kcu.constraint_name = rc.constraint_name
      where kcu.table_schema = 'public'`);
    const rule = (table: string, column: string) =>
      rows.find((row) => row.table_name === table && row.column_name === column)?.delete_rule;
    for (const table of ['printers', 'filaments', 'packaging', 'shipping_providers', 'marketplaces', 'projects']) {
      expect(rule(table, 'user_id')).toBe('CASCADE');
    }
    for (const column of [
      'selected_printer_id',
      'selected_filament_id',
      'selected_packaging_id',
      'selected_shipping_provider_id',
      'selected_marketplace_id',
    ]) {
      expect(rule('projects', column)).toBe('SET NULL');
    }
  });

  it('indexes the owner columns and sessions.expire', async () => {
    const rows: { tablename: string; indexdef: string }[] = await orm.em
      .getConnection()
      .execute(`select tablename, indexdef from pg_indexes where schemaname = 'public'`);
    for (const table of ['printers', 'filaments', 'packaging', 'shipping_providers', 'marketplaces', 'projects']) {
      expect(rows.some((row) => row.tablename === table && row.indexdef.includes('(user_id)'))).toBe(true);
    }
    expect(rows.some((row) => row.tablename === 'sessions' && row.indexdef.includes('(expire)'))).toBe(true);
  });

  it('deletes a user’s rows with the user and nulls project selections when an item goes', async () => {
    const user = newUser();
    const printer = em().create(Printer, { user, name: 'Prusa MK4', wattage: 120, cost: 799, lifetimeHours: 5000 });
    const project = em().create(Project, { ...projectFields(user), selectedPrinter: printer });
    const writer = em();
    writer.persist([user, printer, project]);
    await writer.flush();

    // Deleting the printer keeps the project but forgets the selection.
    await em().nativeDelete(Printer, { id: printer.id });
    const kept = await em().findOneOrFail(Project, { id: project.id });
    expect(kept.selectedPrinter).toBeNull();

    const second = em().create(Printer, { user, name: 'Bambu A1', wattage: 95, cost: 349, lifetimeHours: 4000 });
    await em().persist(second).flush();

    const remover = em();
    remover.remove(await remover.findOneOrFail(User, { id: user.id }));
    await remover.flush();

    const reader = em();
    expect(await reader.count(User, { id: user.id })).toBe(0);
    expect(await reader.count(Printer, { user: user.id })).toBe(0);
    expect(await reader.count(Project, { user: user.id })).toBe(0);
  });

  it('returns numeric columns as JS numbers, exactly', async () => {
    const user = newUser();
    const printer = em().create(Printer, {
      user,
      name: 'Ender 3',
      wattage: 350,
      cost: 199.99,
      lifetimeHours: 3000,
      electricityRate: 0.3215,
    });
    const marketplace = em().create(Marketplace, { user, name: 'Etsy', percentageFee: 0.105, fixedFee: 0.2 });
    const project = em().create(Project, { ...projectFields(user), printTime: 1 + 10 / 60 });
    const writer = em();
    writer.persist([user, printer, marketplace, project]);
    await writer.flush();

    const reader = em();
    const loadedPrinter = await reader.findOneOrFail(Printer, { id: printer.id });
    expect(typeof loadedPrinter.electricityRate).toBe('number');
    expect(loadedPrinter.electricityRate).toBe(0.3215);
    expect(loadedPrinter.cost).toBe(199.99);
    expect(loadedPrinter.isActive).toBe(1);

    const loadedMarketplace = await reader.findOneOrFail(Marketplace, { id: marketplace.id });
    expect(loadedMarketplace.percentageFee).toBe(0.105);
    expect(loadedMarketplace.fixedFee).toBe(0.2);

    const loadedProject = await reader.findOneOrFail(Project, { id: project.id });
    expect(typeof loadedProject.filamentPricePerKg).toBe('number');
    expect(loadedProject.filamentPricePerKg).toBe(24.99);
    expect(loadedProject.printTime).toBe(1.166667);
    expect(loadedProject.marketplaceFeeFixed).toBe(0);
    expect(loadedProject.printerCost).toBe(300);
    expect(loadedProject.printerLifetimeHours).toBe(3000);
  });

  it('fills ids and defaults in the database for raw inserts', async () => {
    const user = newUser();
    await em().persist(user).flush();
    const [row] = await orm.em.getConnection().execute(
      `insert into printers (user_id, name, wattage, cost, lifetime_hours) values (?, 'Raw', 100, 300, 2000) returning *`,
      [user.id],
    );
    expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(row.electricity_rate)).toBe(0.32);
    expect(row.is_active).toBe(1);
    // Raw queries get timestamps as text (MikroORM's pg type parsers); only entities map them to Date.
    expect(Date.parse(row.created_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('stores e-mail addresses lower-cased and keeps them unique', async () => {
    const first = newUser({ email: '  Anna.Schmidt@Example.DE ' });
    await em().persist(first).flush();
    const loaded = await em().findOneOrFail(User, { id: first.id });
    expect(loaded.email).toBe('anna.schmidt@example.de');
    expect(loaded.isPremium).toBe(0);
    expect(loaded.isAdmin).toBe(0);
    expect(loaded.emailVerified).toBe(false);

    // Updates are normalised too, and touch updatedAt without losing the (lazy, unloaded) password.
    const editor = em();
    const editing = await editor.findOneOrFail(User, { id: first.id });
    const before = editing.updatedAt.getTime();
    editing.email = 'Anna@Example.DE';
    await editor.flush();
    const updated = await em().findOneOrFail(User, { id: first.id }, { populate: ['password'] });
    expect(updated.email).toBe('anna@example.de');
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(updated.password).toContain('notarealhash');

    const duplicate = newUser({ email: 'ANNA@example.de' });
    await expect(em().persist(duplicate).flush()).rejects.toBeInstanceOf(UniqueConstraintViolationException);
  });

  it('never serialises the password', async () => {
    const user = newUser();
    await em().persist(user).flush();
    expect(wrap(user).toObject()).not.toHaveProperty('password');
    const loaded = await em().findOneOrFail(User, { id: user.id });
    expect(JSON.stringify(loaded)).not.toContain('notarealhash');
    const withPassword = await em().findOneOrFail(User, { id: user.id }, { populate: ['password'] });
    expect(withPassword.password).toContain('notarealhash');
  });

  it('stores sessions as jsonb', async () => {
    const expire = new Date(Date.now() + 60_000);
    await em().persist(em().create(Session, { sid: 'abc', sess: { userId: 'u1', toast: null }, expire })).flush();
    const loaded = await em().findOneOrFail(Session, { sid: 'abc' });
    expect(loaded.sess).toEqual({ userId: 'u1', toast: null });
    expect(loaded.expire.getTime()).toBe(expire.getTime());
  });
});
