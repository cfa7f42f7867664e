import { useState } from 'react';
import type { LayoutHead } from '../../../../shared/api/head.ts';
import type { ShouldRevalidateArgs } from '../../../../shared/api/route-definition.ts';
import { Link } from '../../../../shared/api/link.tsx';
import { Outlet, useLoaderData } from '../../../../shared/api/route-hooks.tsx';
import { countLoad } from './load-counts.ts';

export interface ShellData {
  /** How many times this layout's load has run in this server process. */
  readonly shellLoads: number;
}

export const head: LayoutHead = { description: 'The layout fixtures of the framework tests.' };

export function load(): ShellData {
  return { shellLoads: countLoad('shell') };
}

/** The shell's links: id, address, text. */
const LINKS = [
  ['to-one', '/layouts/one', 'One'],
  ['to-two', '/layouts/two', 'Two'],
  ['to-broken', '/layouts/broken', 'Broken'],
  ['to-missing', '/layouts/broken?missing', 'Missing'],
  ['to-guests', '/layouts/guests', 'Guests'],
] as const;

/**
 * The shell's data does not change with a guest added quietly (`intent=quiet`): it stays. What
 * it was asked is kept on `window` for the tests to read.
 */
export function shouldRevalidate(args: ShouldRevalidateArgs): boolean {
  const { currentUrl, nextUrl, formMethod, formAction, formData, actionResult, defaultShouldRevalidate } = args;
  Reflect.set(window, '__shellAsked', [
    ...(Reflect.get(window, '__shellAsked') ?? []),
    {
      currentUrl: currentUrl.href,
      nextUrl: nextUrl.href,
      formMethod,
      formAction,
      fields: formData === undefined ? undefined : Object.fromEntries(formData),
      actionResult: actionResult === undefined ? undefined : JSON.stringify(actionResult),
      defaultShouldRevalidate,
    },
  ]);
  return formData?.get('intent') === 'quiet' ? false : defaultShouldRevalidate;
}

/** The outer layout of the layout fixtures: a header with a field and a counter that must survive navigation. */
export default function Shell() {
  const { shellLoads } = useLoaderData<typeof load>();
  const [clicks, setClicks] = useState(0);
  return (
    <div id="shell">
      <header>
        <label>
          Filter <input id="shell-input" name="filter" />
        </label>
        <button id="shell-clicks" type="button" onClick={() => setClicks(clicks + 1)}>
          Clicked {clicks}
        </button>
        <p id="shell-loads">{shellLoads}</p>
        <nav>
          {LINKS.map(([id, href, text]) => (
            <Link key={id} id={id} href={href}>
              {text}
            </Link>
          ))}
        </nav>
      </header>
      <Outlet />
    </div>
  );
}
