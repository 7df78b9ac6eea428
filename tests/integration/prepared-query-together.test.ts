import { describe, expect, it } from 'vitest';
import { Printer, User } from '../../app/entities';
import { listPickerItems, pickerItemsRead } from '../../app/models/library.server';
import { queryPreparedTogether } from '../../app/services/prepared-query.server';
import { createUser, useAuthTestApp } from '../setup/auth-app';

const app = useAuthTestApp('prepared-together');

describe('queryPreparedTogether', () => {
  it('answers each read with its own rows, in its order, with parameters in order and empty reads as []', async () => {
    const { user } = await createUser(app.orm);
    const em = app.em();
    for (const [name, cost] of [['b Drucker', 300.5], ['A Drucker', 199.99], ['c Drucker', 1]] as const) {
      em.create(Printer, { user: em.getReference(User, user.id), name, wattage: 200, cost, lifetimeHours: 3000 });
    }
    await em.flush();
    const ctx = { em: app.em(), user };
    const [pickers, numbers, none, texts] = await queryPreparedTogether(ctx.em, [
      pickerItemsRead(ctx),
      { sql: 'select g as n, g * 1.25::numeric as x from generate_series(1, ?::int) g', params: [3], orderBy: 't.n desc', read: (rows) => rows },
      { sql: 'select 1 where false', params: [], read: (rows) => rows },
      { sql: 'select ?::text as a, ?::text as b', params: ['erst', 'dann'], read: ([row]) => row },
    ]);
    // The same lists, in the same order (the database's collation), as the picker query alone.
    expect(pickers).toEqual(await listPickerItems(ctx));
    expect(pickers.printers.map((item) => item.cost).sort()).toEqual([1, 199.99, 300.5]);
    expect(numbers).toEqual([
      { n: 3, x: 3.75 },
      { n: 2, x: 2.5 },
      { n: 1, x: 1.25 },
    ]);
    expect(none).toEqual([]);
    expect(texts).toEqual({ a: 'erst', b: 'dann' });
  });
});
