import { isbot } from 'isbot';

/** Distinct user agents are few; isbot's pattern is long. Remember recent answers. */
const MAX_REMEMBERED = 1_000;
const answers = new Map<string, boolean>();

/** Crawlers get the whole document at once (docs/rendering.md); browsers get the streamed shell. */
export function isCrawler(userAgent: string | undefined): boolean {
  if (userAgent === undefined || userAgent === '') return isbot(userAgent);
  let answer = answers.get(userAgent);
  if (answer === undefined) {
    answer = isbot(userAgent);
    // Bounded: a flood of made-up agents only ever costs the oldest entry.
    if (answers.size >= MAX_REMEMBERED) answers.delete(answers.keys().next().value ?? '');
    answers.set(userAgent, answer);
  }
  return answer;
}
