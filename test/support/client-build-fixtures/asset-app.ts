import { defineApp } from '../../../server/app-definition.ts';
import { defineRoute } from '../../../shared/api/route-definition.ts';
import og from './assets/og.png';

/** An app whose one image only the server names: its head's og:image. */
export default defineApp({ routes: [defineRoute({ path: '/', component: () => null, head: { title: 'Shared', openGraph: { image: og } } })] });
