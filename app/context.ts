import type { Session, SessionStorage } from 'react-stream-shell/server';
import type { GuestbookStore } from './guestbook/store.server.ts';

/** Who signed in, as their session cookie says. */
export interface Visitor {
  readonly name: string;
  readonly role: 'admin' | 'reader';
}

/** What the session cookie holds. */
export interface SessionFields {
  readonly visitor: Visitor;
}

/** The app's per-request context, made by `getLoadContext` in app.ts: every `load` and `action` gets it. */
declare module 'react-stream-shell' {
  interface AppLoadContext {
    readonly guestbook: GuestbookStore;
    readonly sessions: SessionStorage<SessionFields>;
    readonly session: Session<SessionFields>;
    readonly admins: ReadonlySet<string>;
  }
}
