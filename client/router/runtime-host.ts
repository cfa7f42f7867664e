import { startTransition } from 'react';
import { flushSync } from 'react-dom';
import { actionOf, fieldsOf, setNavigationState, submissionOf } from '../../shared/api/navigation.ts';
import { routeErrorOf } from '../../shared/api/route-errors.tsx';
import { pageDataIn, valueIn } from '../page-data.ts';
import { announce } from './announcer.ts';
import { postsInPlace } from './form-post.ts';
import { keptScroll, otherFragmentHere, saveScroll } from './history-entry.ts';

/**
 * What the navigation runtime (create-router.ts) borrows from the code a page loads first,
 * handed to it when it starts rather than imported by it: its chunk shares no module with the
 * first load, since a module both imported would run twice, with two copies of its state (the
 * client build refuses one, scripts/client-build/lazy-chunks-plugin.ts). A tuple, not an object:
 * a minifier renames the runtime's local names for its parts, but an object's property names
 * would stay in every page's first load.
 */
export type RuntimeHost = readonly [
  startTransition: typeof startTransition,
  flushSync: typeof flushSync,
  actionOf: typeof actionOf,
  fieldsOf: typeof fieldsOf,
  setNavigationState: typeof setNavigationState,
  submissionOf: typeof submissionOf,
  routeErrorOf: typeof routeErrorOf,
  pageDataIn: typeof pageDataIn,
  valueIn: typeof valueIn,
  announce: typeof announce,
  postsInPlace: typeof postsInPlace,
  keptScroll: typeof keptScroll,
  saveScroll: typeof saveScroll,
  otherFragmentHere: typeof otherFragmentHere,
];

export const RUNTIME_HOST: RuntimeHost = [
  startTransition,
  flushSync,
  actionOf,
  fieldsOf,
  setNavigationState,
  submissionOf,
  routeErrorOf,
  pageDataIn,
  valueIn,
  announce,
  postsInPlace,
  keptScroll,
  saveScroll,
  otherFragmentHere,
];
