declare const counter: { readonly count: number };
export = counter;
