import { defineApp } from 'react-stream-shell/server';
import { routes } from './routes.ts';

export default defineApp({ routes, site: { name: 'Dev loop' } });
