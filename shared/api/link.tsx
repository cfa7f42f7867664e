import { useEffect, useRef, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { currentNavigator } from './navigation.ts';

export interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  readonly href: string;
  /**
   * What to fetch ahead of a click: the target page's code when the pointer rests on the link
   * or it gets focus (`intent`, the default), also its data (`data`), as soon as the link is
   * in view (`viewport`), or nothing (`none`).
   */
  readonly prefetch?: 'intent' | 'data' | 'viewport' | 'none';
  /** Replace the current history entry instead of adding one. */
  readonly replace?: boolean;
}

/** The clicks a page may take over; the rest are the browser's (new tab, download, and so on). */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  const { button, metaKey, altKey, ctrlKey, shiftKey, defaultPrevented, currentTarget } = event;
  const target = currentTarget.getAttribute('target');
  return !defaultPrevented && button === 0 && !metaKey && !altKey && !ctrlKey && !shiftKey && (target === null || target === '_self') && !currentTarget.hasAttribute('download');
}

/**
 * A link: a plain `<a href>` that works without JavaScript. After hydration, a plain click on
 * a same-origin link to a page with code navigates in place (client/router.tsx); anything
 * else is left to the browser.
 */
export function Link({ href, prefetch = 'intent', replace = false, onClick, onMouseEnter, onFocus, ...rest }: LinkProps) {
  const ref = useRef<HTMLAnchorElement>(null);

  function fetchAhead(): void {
    if (prefetch !== 'none') currentNavigator()?.prefetch(new URL(href, location.href), prefetch === 'data');
  }

  useEffect(() => {
    const element = ref.current;
    // No check for IntersectionObserver: every browser that runs this build (ES2022) has it.
    if (prefetch !== 'viewport' || element === null) return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      currentNavigator()?.prefetch(new URL(href, location.href), false);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [href, prefetch]);

  return (
    <a
      {...rest}
      ref={ref}
      href={href}
      onClick={(event) => {
        onClick?.(event);
        if (!isPlainClick(event)) return;
        if (currentNavigator()?.navigate(new URL(href, location.href), { replace }) === true) event.preventDefault();
      }}
      onMouseEnter={(event) => {
        onMouseEnter?.(event);
        fetchAhead();
      }}
      onFocus={(event) => {
        onFocus?.(event);
        fetchAhead();
      }}
    />
  );
}
