/**
 * The longest name a visitor may sign in or sign the book under. A name, not a letter: and a
 * session cookie holds it, which a browser keeps only up to about 4 KB.
 */
export const MAX_NAME = 60;

/** What is wrong with a name as typed (already trimmed), for the field's error; `undefined` when nothing. */
export function nameError(name: string): string | undefined {
  if (name === '') return 'Enter your name.';
  if (name.length > MAX_NAME) return `Keep it under ${MAX_NAME} characters.`;
  return undefined;
}
