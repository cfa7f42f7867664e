/** A page's entry inside one layout: the layout's module, then the page's. */
export const modules = [{ default: () => null }, { default: () => null }];
