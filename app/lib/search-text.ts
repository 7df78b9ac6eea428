/**
 * A search box's text as the database may see it: control characters (a NUL
 * byte would make PostgreSQL refuse the whole query) removed, trimmed, and no
 * longer than `max` (a longer text cannot match the field it searches anyway).
 */
export function searchText(q: string | null | undefined, max: number): string {
  return (q ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, max);
}
