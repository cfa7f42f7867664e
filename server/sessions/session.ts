/**
 * A session and its storage, in the shape of React Router's: whichever storage holds it (a
 * signed cookie, cookie-session.ts, or a store the app gives, session-storage.ts), a load or an
 * action reads and commits it alike.
 */

export type SessionData = Readonly<Record<string, unknown>>;

export interface Session<Data extends object = SessionData> {
  /** The session's id in its store; empty for a session kept in its cookie, or one not yet committed. */
  readonly id: string;
  get<Key extends keyof Data & string>(key: Key): Data[Key] | undefined;
  set<Key extends keyof Data & string>(key: Key, value: Data[Key]): void;
  unset(key: keyof Data & string): void;
  has(key: keyof Data & string): boolean;
  /** A copy of everything in the session. */
  readonly data: Partial<Data>;
}

export interface SessionStorage<Data extends object = SessionData> {
  /** The session the `Cookie` header carries; an empty one when there is none, its signature does not verify or it has ended. */
  getSession(cookieHeader: string | null | undefined): Promise<Session<Data>>;
  /** The `Set-Cookie` value that stores the session: return it from an action or `load` in `data(value, { headers })`. */
  commitSession(session: Session<Data>): Promise<string>;
  /** Ends the session in its storage and gives the `Set-Cookie` value that removes its cookie (a sign-out). */
  destroySession(session: Session<Data>): Promise<string>;
}

/**
 * A session's values in a Map: any key is a key (`__proto__` too). A class, not an object
 * literal of closures with a `data` getter: V8 builds such a literal through a slow path, and
 * every request to an app with sessions makes one, where a class's methods are its prototype's.
 */
export class MapSession<Data extends object> implements Session<Data> {
  readonly id: string;
  readonly #values: Map<string, unknown>;

  constructor(initial: SessionData, id = '') {
    this.id = id;
    this.#values = new Map(Object.entries(initial));
  }

  get<Key extends keyof Data & string>(key: Key): Data[Key] | undefined {
    return this.#values.get(key) as Data[Key] | undefined;
  }

  set<Key extends keyof Data & string>(key: Key, value: Data[Key]): void {
    this.#values.set(key, value);
  }

  unset(key: keyof Data & string): void {
    this.#values.delete(key);
  }

  has(key: keyof Data & string): boolean {
    return this.#values.has(key);
  }

  get data(): Partial<Data> {
    return Object.fromEntries(this.#values) as Partial<Data>;
  }
}
