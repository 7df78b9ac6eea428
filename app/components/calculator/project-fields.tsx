import { PROJECT_PARAM } from '~/calculator/page';

/**
 * What every calculator form carries for saving, also for visitors: the opened
 * project's hidden fields (the intent and the refusal's shape are in
 * ~/calculator/page.ts). The save panel itself (./project-save.tsx) is a
 * signed-in part, loaded apart.
 */
/** The opened project's id and the values without an input of their own, so every save and link keeps them. */
export function ProjectHiddenFields({ projectId, hidden }: { projectId: string | null; hidden: Record<string, string> }) {
  return (
    <>
      {projectId ? <input type="hidden" name={PROJECT_PARAM} value={projectId} /> : null}
      {Object.entries(hidden)
        // The product image has its own control (upload area); the rest are library references.
        .filter(([name]) => name !== 'productImagePath')
        .map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
    </>
  );
}
