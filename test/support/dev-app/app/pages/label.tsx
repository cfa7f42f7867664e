/** A component module of its own: its edit is applied in place too. */
export function Label() {
  return <span id="label">Clicked</span>;
}
