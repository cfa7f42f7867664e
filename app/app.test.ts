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
    const { app: server, start } = createTestApp(app);
    // The guest book reads its database: migrated first, as a start does.
    await start();
    for (const path of ['/', '/guestbook', '/sign-in']) {
      const { text } = await request(server).get(path).expect(200);
      const body = text.slice(text.indexOf('<div id="root">'));
      expect(body, path).toMatch(/^<div id="root"><a class="skip-link" href="#content">Skip to content<\/a><header/);
      // The target holds the page's main content and ends before the footer.
      expect(body, path).toMatch(/<\/header><div id="content" tabindex="-1">(?:(?!<footer).)*<main (?:(?!<footer).)*<\/div><footer/s);
    }
  });

  test('an unknown address is the not-found page inside the site, with 404; JSON, a POST and a missing built file get the plain 404', async () => {
    const { app: server } = createTestApp(app);
    const page = await request(server).get('/no/such/page').expect(404);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<title>Page not found · React Stream Shell</title>');
    expect(page.text).toContain('<meta name="robots" content="noindex"/>');
    expect(page.text).toMatch(/<header[^>]*>.*<h1>Page not found<\/h1><p>Nothing lives at <code>\/no\/such\/page<\/code>.*<footer/s);
    const json = await request(server).get('/no/such/page').set('Accept', 'application/json').expect(404);
    expect(json.body).toEqual({ status: 404, message: 'This page could not be found.' });
    for (const answer of [await request(server).post('/no/such/page'), await request(server).get('/assets/missing.js')]) {
      expect(answer.status).toBe(404);
      expect(answer.headers.allow).toBeUndefined();
      expect(answer.text).toContain('<h1>404</h1><h2>This page could not be found.</h2>');
    }
  });
});
