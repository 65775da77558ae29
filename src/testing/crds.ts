/**
 * CRDs for tests and demos: read them from objects, YAML/JSON files or folders (multi-document YAML
 * allowed), install them, and wait until each is usable. Invariant: `installCrds` resolves only once
 * every CRD is Established *and* its served versions list it in discovery — the moment a client or
 * an informer can use it — and otherwise fails with `CrdNotServedError` naming what was missing.
 * That holds whether they are installed through a client or through a server's in-process handler.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CustomResourceDefinitionResource, InvalidOptionError, realClock, type ObjectOf, type Status } from '../meta/index.js';
import type { ApiRequest, ApiResponse } from '../apiserver/internal.js';
import { DiscoveryClient, isNotFound, StatusError, type RestClient } from '../client/index.js';
import { CrdNotServedError } from './errors.js';
import { eventually } from './eventually.js';

/** A CustomResourceDefinition object (`apiextensions.k8s.io/v1`). */
export type CustomResourceDefinition = ObjectOf<typeof CustomResourceDefinitionResource>;

/** A CRD given as an object, or a YAML/JSON file or a folder of them (multi-document YAML allowed). */
export type CrdSource = CustomResourceDefinition | string;

const YAML_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** Reads CRD objects from objects, files and folders, refusing documents that are not CRDs. */
export async function loadCrds(sources: readonly CrdSource[]): Promise<CustomResourceDefinition[]> {
  const out: CustomResourceDefinition[] = [];
  for (const source of sources) {
    if (typeof source !== 'string') {
      out.push(checkCrd(source, 'crds[]'));
      continue;
    }
    const info = await stat(source).catch((err: unknown) => {
      throw new InvalidOptionError('crds', `cannot read ${source}: ${(err as Error).message}`);
    });
    const files = info.isDirectory()
      ? (await readdir(source))
          .filter((f) => YAML_EXTENSIONS.has(extname(f)))
          .sort()
          .map((f) => join(source, f))
      : [source];
    for (const file of files) {
      for (const doc of parseAllDocuments(await readFile(file, 'utf8'))) {
        if (doc.errors.length > 0) throw new InvalidOptionError('crds', `${file}: ${doc.errors[0]!.message}`);
        const value: unknown = doc.toJS();
        if (value === null || value === undefined) continue; // an empty document between `---`
        out.push(checkCrd(value, file));
      }
    }
  }
  return out;
}

function checkCrd(value: unknown, where: string): CustomResourceDefinition {
  const v = value as Partial<CustomResourceDefinition>;
  if (v?.apiVersion !== 'apiextensions.k8s.io/v1' || v.kind !== 'CustomResourceDefinition') {
    throw new InvalidOptionError(
      'crds',
      `${where}: expected an apiextensions.k8s.io/v1 CustomResourceDefinition, got ${v?.apiVersion}/${v?.kind}`,
    );
  }
  return v as CustomResourceDefinition;
}

/** Options of `installCrds`: the client to install with, the CRDs, and how long to wait until each is served. */
export interface InstallCrdsOptions {
  /** A client of the server (its transport is used for discovery). */
  client: RestClient;
  crds: readonly CrdSource[];
  /** How long to wait for each CRD to be served; default 10 000 ms. */
  timeoutMs?: number;
}

/** Creates the CRDs and waits until each is Established and in discovery; returns them as created. */
export async function installCrds(options: InstallCrdsOptions): Promise<CustomResourceDefinition[]> {
  const crds = await loadCrds(options.crds);
  const created = await Promise.all(crds.map((crd) => options.client.create(CustomResourceDefinitionResource, crd)));
  const view = clientView(options.client);
  await Promise.all(created.map((crd) => waitServed(view, crd, options.timeoutMs ?? 10_000)));
  return created;
}

/** A server's in-process request handler (`RunningApiServer.handle`): trusted, no socket, no token. */
export type InProcessHandler = (req: ApiRequest) => Promise<ApiResponse>;

/**
 * `installCrds` through the server's in-process handler instead of HTTP: the same create (with the
 * server's full CRD validation) and the same wait for Established and discovery, without the TLS
 * connections and round trips, which are most of a test environment's start.
 */
export async function installCrdsInProcess(
  handle: InProcessHandler,
  crds: readonly CustomResourceDefinition[],
  timeoutMs: number,
): Promise<CustomResourceDefinition[]> {
  const created = await Promise.all(
    crds.map(async (crd) => {
      const r = await handle({ method: 'POST', path: CRD_PATH, headers: IN_PROCESS_HEADERS, body: JSON.stringify(crd) });
      return successBody(r) as CustomResourceDefinition;
    }),
  );
  const view = inProcessView(handle);
  await Promise.all(created.map((crd) => waitServed(view, crd, timeoutMs)));
  return created;
}

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const IN_PROCESS_HEADERS = { 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'converge-testenv' };

/** The JSON body of a 2xx response; any other answer becomes the `StatusError` a client would throw. */
function successBody(r: ApiResponse): unknown {
  if (r.status >= 200 && r.status < 300) return JSON.parse(r.body);
  let status: Status;
  try {
    status = JSON.parse(r.body) as Status;
  } catch {
    status = { apiVersion: 'v1', kind: 'Status', status: 'Failure', message: r.body.trim() };
  }
  throw new StatusError({ ...status, code: r.status });
}

/** What waiting for a CRD reads: the CRD as stored, and the resources discovery lists for a group/version. */
interface ServedView {
  crd(name: string): Promise<CustomResourceDefinition>;
  /** Resource names of `gv`; none when the group/version is not served (yet). */
  resources(gv: string): Promise<string[]>;
}

function clientView(client: RestClient): ServedView {
  const discovery = new DiscoveryClient({ transport: client.transport });
  return {
    crd: (name) => client.get(CustomResourceDefinitionResource, { name }),
    resources: (gv) =>
      discovery.serverResourcesForGroupVersion(gv).then(
        (list) => list.resources.map((r) => r.name),
        (err: unknown) => {
          if (isNotFound(err)) return [];
          throw err;
        },
      ),
  };
}

function inProcessView(handle: InProcessHandler): ServedView {
  const get = (path: string): Promise<ApiResponse> => handle({ method: 'GET', path, headers: IN_PROCESS_HEADERS });
  return {
    crd: async (name) => successBody(await get(`${CRD_PATH}/${name}`)) as CustomResourceDefinition,
    resources: async (gv) => {
      const r = await get(`/apis/${gv}`);
      if (r.status === 404) return [];
      return (successBody(r) as { resources: { name: string }[] }).resources.map((x) => x.name);
    },
  };
}

async function waitServed(view: ServedView, crd: CustomResourceDefinition, timeoutMs: number): Promise<void> {
  const name = crd.metadata?.name ?? '';
  const versions = crd.spec.versions.filter((v) => v.served).map((v) => `${crd.spec.group}/${v.name}`);
  let missing = '';
  try {
    await eventually(
      async () => {
        missing = 'Established condition';
        const current = await view.crd(name);
        const established = current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
        if (!established) return false;
        for (const gv of versions) {
          missing = `${crd.spec.names.plural} in discovery of ${gv}`;
          if (!(await view.resources(gv)).includes(crd.spec.names.plural)) return false;
        }
        return true;
      },
      // Real time on purpose: a FakeClock given for the controllers must not stall setup.
      { timeoutMs, intervalMs: 5, clock: realClock },
    );
  } catch (err) {
    throw new CrdNotServedError(name, missing, timeoutMs, { cause: err });
  }
}
