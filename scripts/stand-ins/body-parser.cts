/**
 * What the server bundle's Express gets for `body-parser` (scripts/build-server.ts swaps this
 * file in for every import of it but the one below). The real module loads all four parsers as
 * it loads, and with them raw-body, iconv-lite's tables and qs: a few milliseconds of every
 * cold start for what only an action's post needs. Express copies `json`, `raw`, `text` and
 * `urlencoded` onto itself when it loads, so each is a function here that loads the real module
 * when it is first called, which the product does on the first post (server/actions/form-body.ts).
 */
type ParserFactory = (options?: unknown) => unknown;

interface BodyParser {
  json: ParserFactory;
  raw: ParserFactory;
  text: ParserFactory;
  urlencoded: ParserFactory;
}

let bodyParser: BodyParser | undefined;

function loadBodyParser(): BodyParser {
  // The plugin leaves this import alone, so esbuild bundles the real module here.
  bodyParser ??= require('body-parser') as BodyParser;
  return bodyParser;
}

/** The real module's own export: the parsers' former all-in-one, which only throws. */
function bodyParserStandIn(): never {
  throw new Error('The bodyParser() generic has been split into individual middleware to use instead.');
}

module.exports = Object.assign(bodyParserStandIn, {
  json: (options?: unknown) => loadBodyParser().json(options),
  raw: (options?: unknown) => loadBodyParser().raw(options),
  text: (options?: unknown) => loadBodyParser().text(options),
  urlencoded: (options?: unknown) => loadBodyParser().urlencoded(options),
});
