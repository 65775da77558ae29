/**
 * Bearer tokens the server mints for ServiceAccounts (the `serviceaccounts/<name>/token`
 * TokenRequest, or an in-process call): JWT-shaped, so clients that read the claims (`sub`, `exp`)
 * see what a cluster's token holds, but checked by lookup rather than signature — the third segment
 * is 32 random bytes, so a token cannot be forged or guessed. Invariant: a token authenticates only
 * while it is unexpired and the ServiceAccount it was minted for still exists with the same uid, as
 * kube-apiserver checks bound tokens.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../meta/index.js';
import { serviceAccountUser, type UserInfo } from '../ground/index.js';

/** A minted token and when it stops authenticating. */
export interface IssuedToken {
  token: string;
  /** Milliseconds since the epoch, on the server's clock. */
  expiresAt: number;
}

interface Minted {
  namespace: string;
  name: string;
  uid: string;
  expiresAt: number;
}

export interface IssueTokenOptions {
  namespace: string;
  name: string;
  /** The ServiceAccount's uid: the token dies with that object. */
  uid: string;
  expirationSeconds: number;
  audiences?: readonly string[];
}

export class ServiceAccountTokens {
  readonly #clock: Clock;
  /** The uid a ServiceAccount has now (undefined once deleted). */
  readonly #currentUid: (namespace: string, name: string) => string | undefined;
  readonly #minted = new Map<string, Minted>();

  constructor(clock: Clock, currentUid: (namespace: string, name: string) => string | undefined) {
    this.#clock = clock;
    this.#currentUid = currentUid;
  }

  issue(o: IssueTokenOptions): IssuedToken {
    const now = this.#clock.now();
    const expiresAt = now + o.expirationSeconds * 1000;
    const claims = {
      iss: 'https://converge.local',
      sub: serviceAccountUser(o.namespace, o.name).username,
      aud: o.audiences ?? [],
      iat: Math.floor(now / 1000),
      exp: Math.floor(expiresAt / 1000),
      jti: randomUUID(),
      'kubernetes.io': { namespace: o.namespace, serviceaccount: { name: o.name, uid: o.uid } },
    };
    const enc = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
    const token = `${enc({ alg: 'none', typ: 'JWT' })}.${enc(claims)}.${randomBytes(32).toString('base64url')}`;
    this.#minted.set(token, { namespace: o.namespace, name: o.name, uid: o.uid, expiresAt });
    return { token, expiresAt };
  }

  /** The user a token names, or undefined when it is unknown, expired or its ServiceAccount is gone. */
  authenticate(token: string): UserInfo | undefined {
    const m = this.#minted.get(token);
    if (!m) return undefined;
    if (this.#clock.now() >= m.expiresAt || this.#currentUid(m.namespace, m.name) !== m.uid) {
      this.#minted.delete(token);
      return undefined;
    }
    return serviceAccountUser(m.namespace, m.name, m.uid);
  }
}
