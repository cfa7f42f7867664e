import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createTestApp } from 'react-stream-shell/testing';
import app from './app.ts';

describe('the app', () => {
  test('serves its home page with its title', async () => {
    const { app: server } = createTestApp(app);
    const res = await request(server).get('/').expect(200);
    expect(res.text).toContain('<title>Home · React Stream Shell</title>');
    expect(res.text).toContain('The server streamed this page and the browser hydrated it.');
  });

  test('every page begins with a link past the header to the page, which it holds', async () => {
    const { app: server } = createTestApp(app);
    for (const path of ['/', '/guestbook', '/sign-in']) {
      const { text } = await request(server).get(path).expect(200);
      const body = text.slice(text.indexOf('<div id="root">'));
      expect(body, path).toMatch(/^<div id="root"><a class="skip-link" href="#content">Skip to content<\/a><header/);
      // The target holds the page's main content and ends before the footer.
      expect(body, path).toMatch(/<\/header><div id="content" tabindex="-1">(?:(?!<footer).)*<main (?:(?!<footer).)*<\/div><footer/s);
    }
  });
});
