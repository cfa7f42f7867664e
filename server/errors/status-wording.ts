import type { Request } from 'express';
import type { SiteHead, TextDirection } from '../../shared/api/head.ts';
import { statusMessage } from '../../shared/wording/status-messages.ts';
import type { PageRequest } from '../../shared/api/route-definition.ts';
import { applicationErrorMessage } from '../../shared/views/status-view.tsx';

/** How many `Accept-Language` values' choices are kept before the memory starts again. */
const NEGOTIATED_HEADERS = 256;

/** One language's wording of the status pages: a message per status, `{ 404: 'Page introuvable.' }`. */
export type StatusMessages = Readonly<Partial<Record<number, string>>>;

/** The wording options of `defineApp({ statusPages })` (docs/status-pages.md#the-apps-choices). */
export interface StatusWordingOptions {
  /** Messages by language tag (`fr`, `pt-BR`); a status a language leaves out has the site language's, else the framework's. */
  readonly messages?: Readonly<Record<string, StatusMessages>> | undefined;
  /** The direction of a language of `messages` other than the site's (`{ ar: 'rtl' }`); the site's is the site's `dir`. */
  readonly directions?: Readonly<Record<string, TextDirection>> | undefined;
  /**
   * The language of a request's status answer, one of the site's and `messages`' tags, from the
   * request as a `load` sees it (a cookie, the path's first segment); anything else (or
   * `undefined`) is the site's. Default: the request's `Accept-Language` among them.
   */
  readonly language?: ((request: PageRequest) => string | undefined) | undefined;
}

/** A language status answers are written in: its tag and direction. */
export interface StatusLanguage {
  readonly lang: string;
  readonly dir: TextDirection | undefined;
}

export interface StatusWording {
  /** The site's language: the one answers are in unless a request picks another. */
  readonly site: StatusLanguage;
  /** Whether answers may differ by language, so they carry `Vary: Accept-Language` (the default choice reads it). */
  readonly byLanguage: boolean;
  /** The request's language; the site's whenever the app gives no other. */
  languageOf(req: Request): StatusLanguage;
  /** The message of `status` in `lang`: the heading's neighbour, the title's and JSON's `message`. */
  message(lang: string, status: number): string;
  /** The 500 page's sentence: the app's message for 500 in `lang`, else the application-error sentence naming `host`. */
  serverErrorMessage(lang: string, host: string): string;
}

/**
 * The words of status answers, per language (docs/status-pages.md#the-apps-choices). Without
 * options every answer is in the site's language with the framework's English messages, and
 * nothing of the request is read.
 */
export function createStatusWording(
  site: Pick<SiteHead, 'lang' | 'dir'> | undefined,
  options: StatusWordingOptions = {},
  pageRequest: (req: Request) => PageRequest = missingPageRequest,
): StatusWording {
  const siteLanguage: StatusLanguage = { lang: site?.lang ?? 'en', dir: site?.dir };
  const messages = options.messages ?? {};
  const languages = new Map<string, StatusLanguage>([[siteLanguage.lang, siteLanguage]]);
  for (const lang of Object.keys(messages)) if (!languages.has(lang)) languages.set(lang, { lang, dir: options.directions?.[lang] });
  const tags = [...languages.keys()];
  const pick = options.language;
  const byLanguage = tags.length > 1;

  const negotiated = new Map<string, StatusLanguage>();
  function known(tag: unknown): StatusLanguage {
    return (typeof tag === 'string' ? languages.get(tag) : undefined) ?? siteLanguage;
  }

  function own(lang: string, status: number): string | undefined {
    return messages[lang]?.[status] ?? messages[siteLanguage.lang]?.[status];
  }

  return {
    site: siteLanguage,
    byLanguage,
    languageOf(req) {
      if (!byLanguage) return siteLanguage;
      if (pick !== undefined) return known(pick(pageRequest(req)));
      const header = req.headers['accept-language'];
      if (header === undefined) return siteLanguage;
      // A flood of unknown addresses from one browser repeats one header: negotiated once, not per request.
      let chosen = negotiated.get(header);
      if (chosen === undefined) {
        // Express's own negotiation (negotiator): `fr-CA` finds `fr`, and a header naming none finds the first, the site's.
        chosen = known(req.acceptsLanguages(tags));
        // Bounded: headers made up per request never grow it past this.
        if (negotiated.size >= NEGOTIATED_HEADERS) negotiated.clear();
        negotiated.set(header, chosen);
      }
      return chosen;
    },
    message(lang, status) {
      return own(lang, status) ?? statusMessage(status);
    },
    serverErrorMessage(lang, host) {
      return own(lang, 500) ?? applicationErrorMessage('server', host);
    },
  };
}

function missingPageRequest(): never {
  throw new Error('statusPages.language: the status pages were made without a way to see the request as a load does');
}
