import type { BuildProblem } from './dev-events.ts';

/** A build error and a render error each have their place; the build's shows above. */
export type OverlayKind = 'build' | 'render';

const ID = 'react-stream-shell-dev-overlay';
const shown = new Map<OverlayKind, HTMLElement>();

/**
 * Styles set through the CSSOM, which the page's Content-Security-Policy allows (it refuses
 * style attributes and inline sheets without a hash); the overlay stays out of the page's tree.
 */
function styled<K extends keyof HTMLElementTagNameMap>(tag: K, styles: Partial<CSSStyleDeclaration>, text?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  Object.assign(element.style, styles);
  if (text !== undefined) element.textContent = text;
  return element;
}

function container(): HTMLElement {
  const existing = document.getElementById(ID);
  if (existing !== null) return existing;
  const root = styled('div', {
    position: 'fixed',
    inset: '0',
    zIndex: '2147483647',
    overflow: 'auto',
    background: 'rgba(20, 20, 24, 0.97)',
    color: '#f4f4f5',
    font: '14px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace',
    padding: '32px',
  });
  root.id = ID;
  root.setAttribute('role', 'alertdialog');
  root.setAttribute('aria-label', 'Development error');
  document.body.append(root);
  return root;
}

/** Shows `problems` under `title` in the overlay, replacing what it showed of that kind. */
export function showOverlay(kind: OverlayKind, title: string, problems: readonly BuildProblem[]): void {
  shown.get(kind)?.remove();
  const section = styled('section', { marginBottom: '24px' });
  section.dataset.kind = kind;
  section.append(styled('h2', { color: '#fca5a5', font: 'bold 18px/1.4 system-ui, sans-serif', margin: '0 0 12px' }, title));
  for (const problem of problems) {
    const where = problem.file === undefined ? '' : `${problem.file}${problem.line === undefined ? '' : `:${problem.line}:${problem.column ?? 0}`}`;
    if (where !== '') section.append(styled('p', { color: '#93c5fd', margin: '12px 0 4px' }, where));
    section.append(styled('p', { margin: '0 0 8px', fontWeight: 'bold' }, problem.text));
    if (problem.frame !== '') section.append(styled('pre', { margin: '0', padding: '12px', background: '#000', overflowX: 'auto', whiteSpace: 'pre' }, problem.frame));
  }
  const root = container();
  if (kind === 'build') root.prepend(section);
  else root.append(section);
  shown.set(kind, section);
}

/** Takes the overlay's part of that kind away; the overlay goes with its last part. */
export function hideOverlay(kind: OverlayKind): void {
  shown.get(kind)?.remove();
  shown.delete(kind);
  const root = document.getElementById(ID);
  if (root !== null && root.childElementCount === 0) root.remove();
}
