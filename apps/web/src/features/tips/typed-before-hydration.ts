/**
 * What a guest typed into the server's text areas before the script hydrated them. Hydrating a `<textarea>` whose
 * server text is not empty puts that text back (react-dom's initTextarea), which would undo an edit of a pre-filled
 * message (the form shown again after a declined payment) made between the first paint and the script. Started just
 * before hydration, this keeps each edited text area's value by its field name until the form takes it.
 */
const typed = new Map<string, string>();
let stopListening: (() => void) | null = null;

export function keepTypedText(root: HTMLElement): void {
  const keep = (area: HTMLTextAreaElement) => {
    if (area.name && area.value !== area.defaultValue) typed.set(area.name, area.value);
  };
  root.querySelectorAll('textarea').forEach(keep);
  const onInput = (event: Event) => {
    if (event.target instanceof HTMLTextAreaElement) keep(event.target);
  };
  root.addEventListener('input', onInput, true);
  stopListening = () => root.removeEventListener('input', onInput, true);
}

/** The text typed into the field before hydration, once: the form's state holds it from then on. */
export function takeTypedText(name: string): string | undefined {
  stopListening?.();
  stopListening = null;
  const text = typed.get(name);
  typed.delete(name);
  return text;
}
