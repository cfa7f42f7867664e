/** Tells screen readers where they are now, as a page load would. */
export function announce(text: string): void {
  let region = document.getElementById('nav-announcer');
  if (region === null) {
    // ARIA's reflected properties set the attributes (aria-live, aria-atomic).
    region = Object.assign(document.createElement('div'), { id: 'nav-announcer', className: 'sr-only', ariaLive: 'assertive', ariaAtomic: 'true' });
    document.body.append(region);
  }
  region.textContent = text;
}
