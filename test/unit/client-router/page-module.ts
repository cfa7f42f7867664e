/** A page's entry as the client build writes it (scripts/build-client.ts): its branch's modules, here a page alone. */
export const modules = [{ default: () => null }];
