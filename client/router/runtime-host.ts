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
 * handed to it when it starts rather than imported by it. Its chunk, fetched at the first sign
 * of a navigation, then shares no module with the first load: a module both import would be
 * split by the bundler into a third first-load file of its own, compressed apart from React's,
 * which costs every page some 740 gzip bytes (docs/app-benchmark.md).
 */
export const RUNTIME_HOST = {
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
};

export type RuntimeHost = typeof RUNTIME_HOST;
