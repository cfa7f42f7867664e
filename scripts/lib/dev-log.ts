import { prettyFactory } from 'pino-pretty';

/**
 * The dev command's view of the server's log: the server writes JSON lines as in production, and
 * the dev command shows them through pino-pretty (the ecosystem's printer): a time, the level and
 * the message, with a line's other fields beside it on the same line. A request's completion line
 * is one short line, `GET /guestbook 200 4 ms`, since that is what a developer reads it for; an
 * error keeps its stack, one frame per line. Anything that is not a JSON line passes as it is.
 */
export function createDevLogPrinter({ colors }: { readonly colors: boolean }): (line: string) => string {
  const prettify = prettyFactory({ colorize: colors, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true });
  return function printDevLine(line: string): string {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return `${line}\n`;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return `${line}\n`;
    return prettify(completionLine(parsed) ?? parsed);
  };
}

/** A completion line (docs/observability.md#the-completion-line) as method, path, status and time; `undefined` for any other line. */
function completionLine(line: object): object | undefined {
  const { msg, level, time, method, path, status, duration } = line as Record<string, unknown>;
  if (msg !== 'request completed' && msg !== 'request aborted') return undefined;
  const aborted = msg === 'request aborted' ? ' (aborted)' : '';
  return { level, time, msg: `${String(method)} ${String(path)} ${String(status)} ${String(duration)} ms${aborted}` };
}
