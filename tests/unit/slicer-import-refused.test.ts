import { describe, expect, it } from 'vitest';
import { lineTextsOf, rawValuesFromSearchParams } from '../../app/calculator/fields';
import { slicerImportRedirect } from '../../app/web/slicer-upload.server';

/*
 * New-user review (2026-11-27): without JavaScript, 'Übernehmen' of the slicer box without a file
 * (or with an unreadable one) answered the calculator with line 1 only: filament lines 2… were lost.
 */
describe('a refused no-JS slicer import keeps every filament line', () => {
  it('no file: the answer link carries all lines, their labels and library choices', async () => {
    const fields = {
      projectName: 'Drache',
      quantity: '2',
      filamentWeight: '30',
      filamentPricePerKg: '20',
      filamentLabel: 'Körper',
      filamentWeight2: '12,5',
      filamentPricePerKg2: '31,5',
      filamentLabel2: 'Rot',
      selectedFilament2: '0c7a3c1e-0000-4000-8000-000000000002',
    };
    const response = await slicerImportRedirect({ status: 'unreadable', error: { code: 'missingFile' }, fields }, null as never);
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('Location')!, 'http://localhost');
    expect(location.searchParams.get('slicerError')).toBe('missingFile');
    expect(location.searchParams.get('projectName')).toBe('Drache');
    expect(location.searchParams.get('selectedFilament2')).toBe('0c7a3c1e-0000-4000-8000-000000000002');
    const lines = lineTextsOf(rawValuesFromSearchParams(location.searchParams));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ grams: '30', pricePerKg: '20', label: 'Körper' });
    expect(lines[1]).toMatchObject({ grams: '12,5', pricePerKg: '31,5', label: 'Rot' });
  });
});
