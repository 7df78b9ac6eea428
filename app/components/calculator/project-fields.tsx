/**
 * What every calculator form carries for saving, also for visitors: the save
 * intent, the refusal's shape and the opened project's hidden fields. The save
 * panel itself (./project-save.tsx) is a signed-in part, loaded apart.
 */
/** The type is the one source: the lazily loaded save panel repeats the value typed by it, rather than importing it from the route's chunk. */
export type SaveIntent = 'save';
export const SAVE_INTENT: SaveIntent = 'save';

/** A refused save, in the words of the §8 toast (title, text, optional link button). */
export type SaveError = { title: string; text: string; action?: { label: string; href: string } };

/** The opened project's id and the values without an input of their own, so every save and link keeps them. */
export function ProjectHiddenFields({ projectId, hidden }: { projectId: string | null; hidden: Record<string, string> }) {
  return (
    <>
      {projectId ? <input type="hidden" name="project" value={projectId} /> : null}
      {Object.entries(hidden)
        // The product image has its own control (upload area); the rest are library references.
        .filter(([name]) => name !== 'productImagePath')
        .map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
    </>
  );
}
