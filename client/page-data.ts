import { PAGE_DATA_ELEMENT_ID, type EmbeddedPageData } from '../shared/page-data.ts';

/** Reads what the server embedded for hydration; see server/render/embedded-json.ts. */
export function readPageData(doc: Document): EmbeddedPageData {
  const text = doc.getElementById(PAGE_DATA_ELEMENT_ID)?.textContent;
  if (!text) return { data: undefined, params: {} };
  const parsed: EmbeddedPageData = JSON.parse(text);
  return parsed;
}
