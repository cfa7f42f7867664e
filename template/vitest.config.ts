import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Production JSX and React, as the server runs them.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  test: { include: ['app/**/*.test.{ts,tsx}'], env: { NODE_ENV: 'production' } },
});
