/**
 * The name of the form field that carries the cross-site token (docs/security.md), which the
 * server checks and every form renders. Apart from the navigation headers: the first load
 * ships it, while those come with the navigation runtime (client/router.tsx).
 */
export const FORM_TOKEN_FIELD = '_csrf';
