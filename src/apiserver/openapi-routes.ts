/**
 * `/openapi/v3` and its per-group-version documents, and the protobuf `/openapi/v2` older kubectl
 * versions insist on, built by the pure OpenAPI builders from the registry's served resources and
 * cached until what is served changes (a CRD comes or goes).
 */
import { buildOpenApiV2Protobuf, buildOpenApiV3Document, buildOpenApiV3Index, OPENAPI_V2_PROTOBUF_CONTENT_TYPE } from './openapi/index.js';
import type { Registry } from './registry/index.js';
import type { ApiResponse } from './wire/index.js';
import { jsonResponse } from './wire/index.js';

export class OpenApiRoutes {
  readonly #registry: Registry;
  #generation = -1;
  readonly #cache = new Map<string, string>();
  #v2: Uint8Array | undefined;

  constructor(registry: Registry) {
    this.#registry = registry;
  }

  #cached(key: string, build: () => unknown): string {
    this.#invalidate();
    let s = this.#cache.get(key);
    if (s === undefined) {
      s = JSON.stringify(build());
      this.#cache.set(key, s);
    }
    return s;
  }

  #invalidate(): void {
    if (this.#generation === this.#registry.generation) return;
    this.#cache.clear();
    this.#v2 = undefined;
    this.#generation = this.#registry.generation;
  }

  /** `rest` is the path after `/openapi`: `['v2']`, `['v3']`, `['v3','api','v1']`, `['v3','apis',g,v]`. */
  serve(rest: string[]): ApiResponse | undefined {
    if (rest[0] === 'v2' && rest.length === 1) {
      this.#invalidate();
      this.#v2 ??= buildOpenApiV2Protobuf(this.#registry.allResources());
      return { status: 200, headers: { 'content-type': OPENAPI_V2_PROTOBUF_CONTENT_TYPE }, body: '', bytes: this.#v2 };
    }
    if (rest[0] !== 'v3') return undefined;
    const resources = (): ReturnType<Registry['allResources']> => this.#registry.allResources();
    if (rest.length === 1)
      return jsonResponse(
        200,
        this.#cached('', () => buildOpenApiV3Index(resources())),
      );
    let gv: string | undefined;
    if (rest[1] === 'api' && rest.length === 3) gv = rest[2]!;
    else if (rest[1] === 'apis' && rest.length === 4) gv = `${rest[2]!}/${rest[3]!}`;
    if (!gv) return undefined;
    const [group, version] = gv.includes('/') ? gv.split('/') : ['', gv];
    if (!this.#registry.servesGroupVersion(group!, version!)) return undefined;
    return jsonResponse(
      200,
      this.#cached(gv, () => buildOpenApiV3Document(gv!, resources())),
    );
  }
}
