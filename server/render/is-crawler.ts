import { isbot } from 'isbot';

/** Distinct user agents are few; isbot's pattern is long. Remember recent answers. */
const MAX_REMEMBERED = 1_000;

/**
 * Real user agents are a few hundred characters; a header can hold about 16 KiB. Only agents up
 * to this length are remembered, so the cache stays under 1,000 × 512 characters. A longer one
 * is asked every time: it is no real browser's, and hashing it to a short key would cost as
 * much as asking, while a prefix as key would let a crawler token
 * past the prefix inherit a browser's answer.
 */
export const MAX_REMEMBERED_AGENT_LENGTH = 512;

const answers = new Map<string, boolean>();

/** Crawlers get the whole document at once (docs/rendering.md); browsers get the streamed shell. */
export function isCrawler(userAgent: string | undefined): boolean {
  if (userAgent === undefined || userAgent === '' || userAgent.length > MAX_REMEMBERED_AGENT_LENGTH) return isbot(userAgent);
  let answer = answers.get(userAgent);
  if (answer === undefined) {
    answer = isbot(userAgent);
    // Bounded: a flood of made-up agents only ever costs the oldest entry.
    if (answers.size >= MAX_REMEMBERED) answers.delete(answers.keys().next().value ?? '');
    answers.set(userAgent, answer);
  }
  return answer;
}

/** What the cache holds, for tests and diagnostics: entries and the characters of their keys. */
export function rememberedAgents(): { readonly count: number; readonly characters: number } {
  let characters = 0;
  for (const agent of answers.keys()) characters += agent.length;
  return { count: answers.size, characters };
}
