import { hydrateRoot } from 'react-dom/client';

/**
 * The least a page can ship and still hydrate: React and one element. The first-load budget
 * of `/` is measured against this, so it must stay this small.
 */
const root = document.getElementById('root');
if (root !== null) hydrateRoot(root, <p>hydrated</p>);
