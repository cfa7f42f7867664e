import { Suspense, use } from 'react';
import type { PageProps, RouteDefinition } from '../../shared/api/route-definition.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { createSettleAfter } from '../../test/support/settle-after.ts';
import { BIG_PAGE_END, BIG_PAGE_PATH, BIG_PAGE_WITH_DATA_PATH } from './big-page-markers.ts';

/** Rows of each page's table by default: about 1 MB of HTML in all, with or without the data. */
const ROWS = 3_000;
const ROWS_WITH_DATA = 2_100;
const MAX_ROWS = 20_000;

const WORDS = (
  'alder amber anchor apple arbor aspen autumn basil beacon birch bramble breeze brook cedar ' +
  'chalk cherry cinder clover cobalt copper coral cotton crimson dune ember fennel fern flint ' +
  'garnet ginger granite harbor hazel heather indigo iris ivory jasper juniper kelp lantern ' +
  'laurel lemon linen lotus maple marble meadow mint moss nectar nutmeg oak ochre olive onyx ' +
  'orchid pebble pepper pine plum poplar quartz raven reed river saffron sage sand slate ' +
  'sorrel spruce stone summit thistle thyme timber topaz tulip umber valley velvet walnut ' +
  'willow wren yarrow zinc'
).split(' ');

/** A small deterministic generator (mulberry32), so every run renders the same bytes. */
function generator(seed: number): () => number {
  let state = seed;
  return function next() {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Row {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly price: string;
  readonly stock: number;
}

/** A catalogue: varied words, numbers and repeated markup, as real listings compress. */
function catalogue(rows: number): readonly Row[] {
  const random = generator(2_024);
  const word = () => WORDS[Math.floor(random() * WORDS.length)] ?? 'stone';
  const words = (count: number) => Array.from({ length: count }, word).join(' ');
  return Array.from({ length: rows }, (_, id) => ({
    id,
    name: words(2 + Math.floor(random() * 2)),
    description: words(6 + Math.floor(random() * 8)),
    price: (random() * 500).toFixed(2),
    stock: Math.floor(random() * 1_000),
  }));
}

/** Made once per size: the measurement times compression, not the catalogue. */
const catalogues = new Map<number, readonly Row[]>();
function catalogueOf(rows: number): readonly Row[] {
  let made = catalogues.get(rows);
  if (made === undefined) {
    made = catalogue(rows);
    catalogues.set(rows, made);
  }
  return made;
}

interface BigPageData {
  /** How long the page's last boundary waits, so every stream of a burst is open at once. */
  readonly tailMs: number;
  readonly rows: readonly Row[];
}

const settleAfter = createSettleAfter<string>();

function Tail({ data }: { readonly data: BigPageData }) {
  return <p id="end">{use(settleAfter(data, data.tailMs, () => BIG_PAGE_END))}</p>;
}

function Table({ rows }: { readonly rows: readonly Row[] }) {
  return (
    <table>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} className="product-row">
            <td className="product-id">{row.id}</td>
            <td className="product-name">
              <a href={`/products/${row.id}`}>{row.name}</a>
            </td>
            <td className="product-description">{row.description}</td>
            <td className="product-price">€{row.price}</td>
            <td className="product-stock">{row.stock} in stock</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function BigPage({ data }: PageProps<BigPageData>) {
  return (
    <main>
      <h1>Catalogue</h1>
      <Table rows={data.rows} />
      <Suspense fallback={<p>Loading…</p>}>
        <Tail data={data} />
      </Suspense>
    </main>
  );
}

/**
 * As a page that hydrates is sent: its data first (the document's data script is in the head),
 * then the HTML made from it, so every string comes twice, hundreds of kilobytes apart.
 */
function BigPageWithData({ data }: PageProps<BigPageData>) {
  return (
    <main>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the benchmark's own rows, standing in for a page's data block */}
      <script type="application/json" dangerouslySetInnerHTML={{ __html: JSON.stringify(data.rows) }} />
      <h1>Catalogue</h1>
      <Table rows={data.rows} />
      <Suspense fallback={<p>Loading…</p>}>
        <Tail data={data} />
      </Suspense>
    </main>
  );
}

function rowsAsked(searchParams: URLSearchParams, fallback: number): number {
  const rows = Number(searchParams.get('rows') ?? fallback);
  return Number.isInteger(rows) && rows > 0 && rows <= MAX_ROWS ? rows : fallback;
}

/**
 * The pages the compression measurement asks for: a shell of about 1 MB (one batch, as a
 * large listing renders; `?rows=` for another size), then one boundary `tailMs` later, so
 * each response's compressor holds a whole page's state while the others are rendered.
 */
export function bigPageRoutes(tailMs: number): readonly RouteDefinition[] {
  return [
    defineRoute({
      path: BIG_PAGE_PATH,
      component: BigPage,
      load: ({ searchParams }): BigPageData => ({ tailMs, rows: catalogueOf(rowsAsked(searchParams, ROWS)) }),
    }),
    defineRoute({
      path: BIG_PAGE_WITH_DATA_PATH,
      component: BigPageWithData,
      load: ({ searchParams }): BigPageData => ({ tailMs, rows: catalogueOf(rowsAsked(searchParams, ROWS_WITH_DATA)) }),
    }),
  ];
}
