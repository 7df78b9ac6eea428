/**
 * Whether someone changed a form's fields since the server rendered them: each
 * control against its markup default (`defaultValue`, `defaultChecked`,
 * `defaultSelected`), which hydration leaves as the server wrote it. Unlike a
 * comparison of FormData with the rendered values, this also sees a box that
 * was unticked (an unticked checkbox is simply missing from FormData).
 */
export function changedSinceRendered(form: HTMLFormElement): boolean {
  return Array.from(form.elements).some((element) => {
    if (element instanceof HTMLInputElement) {
      if (element.type === 'checkbox' || element.type === 'radio') return element.checked !== element.defaultChecked;
      return element.type !== 'file' && element.value !== element.defaultValue;
    }
    if (element instanceof HTMLSelectElement) return Array.from(element.options).some((option) => option.selected !== option.defaultSelected);
    if (element instanceof HTMLTextAreaElement) return element.value !== element.defaultValue;
    return false;
  });
}
