// Leader fencing across real processes: two manager processes campaign for one Lease on a local API
// server, each through its own TCP proxy, and log every reconcile's wall-clock interval to one file.
// The leader is SIGKILLed, frozen past its lease (SIGSTOP, then SIGCONT) or cut off by a network
// blackhole; in each case the successor takes over, and no reconcile of one process overlaps a
// reconcile of the other. The takeover time is printed as a test diagnostic. A second fixture writes in
// every reconcile and rejoins the election after each loss; one pair of it takes turns being frozen in
// the middle of a reconcile, 20 times: none of their writes may reach the server while the Lease names
// the other, and the one made on waking is refused before it is sent.
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { startApiServer, type RunningApiServer } from 'kube-converge/apiserver';
import { createClient, loadKubeConfig, type RestClient } from 'kube-converge/client';
import { ConfigMapResource, LeaseResource, type KubeObject, type ResourceDescriptor } from 'kube-converge/meta';
import { eventually } from 'kube-converge/testing';
import { startTcpProxy, type TcpProxy } from '../cache/tcp-proxy.js';
import { LOAD_STRETCH, PROCESS_START_MS, renewDeadlineBoundMs, takeoverBoundMs, type LeaseTimings } from '../e2e/load-bounds.js';

const fixture = fileURLToPath(new URL('./fixtures/fenced-operator.ts', import.meta.url));
const writerFixture = fileURLToPath(new URL('./fixtures/fenced-writer.ts', import.meta.url));
/** The fixture's default timings; a successor waits one lease from the last renewal it saw, polling every retry. */
const SHORT: LeaseTimings = { leaseDurationMs: 2_000, renewDeadlineMs: 1_500, retryPeriodMs: 400 };
/**
 * Timings that validation accepts and under which a deadline re-armed after each retry (retry +
 * renewDeadline = 4.5 s) outlasts the lease (3 s): a leader fenced by anything but its renew deadline
 * would still reconcile after its successor took over.
 */
const RE_ARMED: LeaseTimings = { leaseDurationMs: 3_000, renewDeadlineMs: 2_500, retryPeriodMs: 2_000 };

/**
 * For the writing fixture rejoining after each loss, 20 times: leases as short as a leader renewing
 * through a proxy on a loaded machine still keeps, stretched with the measured load (2.4 s at rest and
 * at a load of 16 on two cores, longer beyond), so that 20 takeovers fit in about a minute.
 */
const STRETCH = LOAD_STRETCH / 4;
const REJOIN: LeaseTimings = {
  leaseDurationMs: Math.round(1_200 * STRETCH),
  renewDeadlineMs: Math.round(800 * STRETCH),
  retryPeriodMs: Math.round(150 * STRETCH),
};

interface Interval {
  identity: string;
  start: number;
  end: number;
}

/** One manager process, connected through its own proxy. */
class Member {
  readonly lines: string[] = [];
  readonly exited: Promise<number | null>;
  #stderr = '';
  constructor(
    readonly identity: string,
    readonly child: ChildProcess,
    readonly proxy: TcpProxy,
  ) {
    let partial = '';
    child.stdout!.on('data', (d: Buffer) => {
      const parts = (partial + d.toString()).split('\n');
      partial = parts.pop()!;
      this.lines.push(...parts);
    });
    child.stderr!.on('data', (d: Buffer) => (this.#stderr += d.toString()));
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  /** The first line starting with `word`, once it arrived; `<word> <ms>` lines give their time. */
  async waitFor(word: string, timeoutMs: number): Promise<number> {
    const line = await eventually(() => this.lines.find((l) => l.split(' ')[0] === word) ?? false, {
      timeoutMs,
      message: `${this.identity} printing ${word}; output: ${this.lines.join(' | ')} ${this.#stderr}`,
    });
    return Number(line.split(' ')[1]);
  }

  /** Ends the process however it is (a frozen one too) and closes its proxy. */
  async kill(): Promise<void> {
    this.child.kill('SIGCONT');
    this.child.kill('SIGKILL');
    await this.exited;
    await this.proxy.close();
  }

  has(word: string): boolean {
    return this.lines.some((l) => l.split(' ')[0] === word);
  }

  /** How many lines start with `word`. */
  count(word: string): number {
    return this.lines.filter((l) => l.split(' ')[0] === word).length;
  }

  /** The time the `n`-th line starting with `word` gives, once it arrived. */
  async waitForNth(word: string, n: number, timeoutMs: number): Promise<number> {
    const line = await eventually(() => this.lines.filter((l) => l.split(' ')[0] === word)[n - 1] ?? false, {
      timeoutMs,
      message: `${this.identity} printing ${word} for the ${n}th time; output: ${this.lines.join(' | ')} ${this.#stderr}`,
    });
    return Number(line.split(' ')[1]);
  }
}

function readIntervals(text: string): Interval[] {
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [identity, start, end] = line.split(' ');
      return { identity: identity!, start: Number(start), end: Number(end) };
    });
}

/** Asserts that no reconcile interval of one identity overlaps one of another identity. */
function assertNoOverlap(all: Interval[]): void {
  const sorted = [...all].sort((x, y) => x.start - y.start);
  const lastEnd = new Map<string, Interval>();
  for (const iv of sorted) {
    for (const [identity, other] of lastEnd) {
      if (identity !== iv.identity && other.end > iv.start) {
        assert.fail(`${other.identity} reconciled ${other.start}–${other.end} while ${iv.identity} reconciled ${iv.start}–${iv.end}`);
      }
    }
    const prev = lastEnd.get(iv.identity);
    if (!prev || iv.end > prev.end) lastEnd.set(iv.identity, iv);
  }
}

describe('leader fencing across processes', () => {
  let api: RunningApiServer;
  let admin: RestClient;
  let dir: string;
  let serverKubeconfig: string;

  before(async () => {
    api = await startApiServer({ port: 0 });
    dir = await mkdtemp(join(tmpdir(), 'converge-fencing-'));
    serverKubeconfig = join(dir, 'server.kubeconfig');
    await api.writeKubeconfig(serverKubeconfig);
    admin = createClient({ config: loadKubeConfig({ path: serverKubeconfig }), qps: -1 });
    await admin.create(ConfigMapResource, { metadata: { name: 'tick', namespace: 'default' } });
  });

  after(async () => {
    admin.close();
    await api.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** The server's kubeconfig with every cluster's server moved to the proxy's port (scheme and credentials kept). */
  async function kubeconfigThrough(proxy: TcpProxy, name: string): Promise<string> {
    const doc = parse(await readFile(serverKubeconfig, 'utf8')) as { clusters: { cluster: { server: string } }[] };
    for (const { cluster } of doc.clusters) {
      const url = new URL(cluster.server);
      url.port = String(proxy.port);
      cluster.server = `${url.origin}${url.pathname.replace(/\/$/, '')}`;
    }
    const path = join(dir, `${name}.kubeconfig`);
    await writeFile(path, stringify(doc), { mode: 0o600 });
    return path;
  }

  /**
   * Starts two members on the Lease `leaseId`, waits until one leads and the other stands by, lets the
   * leader reconcile a while, then runs `disrupt` on the leader (it returns when the disruption began)
   * and waits for the successor, as long as `timings` let a takeover take under load. Returns both, the
   * disruption time and the reconcile intervals so far.
   */
  async function handOver(t: TestContext, leaseId: string, disrupt: (leader: Member) => Promise<number>, timings: LeaseTimings) {
    const intervalsPath = join(dir, `${leaseId}.intervals`);
    await writeFile(intervalsPath, '');
    const start = async (identity: string): Promise<Member> => {
      const proxy = await startTcpProxy(Number(new URL(api.url).port));
      const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fixture], {
        env: {
          ...process.env,
          IDENTITY: identity,
          LEASE_ID: leaseId,
          INTERVALS_PATH: intervalsPath,
          KUBECONFIG_PATH: await kubeconfigThrough(proxy, `${leaseId}-${identity}`),
          TIMINGS: `${timings.leaseDurationMs},${timings.renewDeadlineMs},${timings.retryPeriodMs}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      return new Member(identity, child, proxy);
    };
    const members = await Promise.all([start(`${leaseId}-a`), start(`${leaseId}-b`)]);
    t.after(async () => {
      for (const m of members) await m.kill();
    });
    await Promise.all(members.map((m) => m.waitFor('standby', PROCESS_START_MS)));
    // The Lease is new, so the first to ask takes it; the other sees it held and waits.
    await eventually(() => members.some((m) => m.has('leading')), { timeoutMs: takeoverBoundMs(timings), message: 'a leader' });
    const leader = members.find((m) => m.has('leading'))!;
    const successor = members.find((m) => m !== leader)!;
    // Its controller starts once it leads, like a process's first work.
    await eventually(async () => readIntervals(await readFile(intervalsPath, 'utf8')).length > 20, {
      timeoutMs: PROCESS_START_MS,
      message: 'the leader reconciling',
    });
    assert.equal(successor.has('leading'), false, 'the standby does not lead while the leader renews');
    const disruptedAt = await disrupt(leader);
    const ledAt = await successor.waitFor('leading', takeoverBoundMs(timings));
    t.diagnostic(`takeover ${ledAt - disruptedAt} ms after the disruption`);
    // Let the successor reconcile a while before the intervals are read.
    await eventually(
      async () =>
        readIntervals(await readFile(intervalsPath, 'utf8')).some((iv) => iv.identity === successor.identity && iv.start > ledAt + 200),
      { timeoutMs: PROCESS_START_MS, message: 'the successor reconciling' },
    );
    const intervals = async () => readIntervals(await readFile(intervalsPath, 'utf8'));
    return { leader, successor, disruptedAt, intervals };
  }

  /** The common verdict: no overlap, and the old leader's last reconcile ended before the successor's first began. */
  function assertHandedOver(t: TestContext, intervals: Interval[], leader: Member, successor: Member): void {
    assertNoOverlap(intervals);
    const old = intervals.filter((iv) => iv.identity === leader.identity);
    const next = intervals.filter((iv) => iv.identity === successor.identity);
    assert.ok(old.length > 0 && next.length > 0, `both reconciled: ${old.length} and ${next.length}`);
    const lastOld = Math.max(...old.map((iv) => iv.end));
    const firstNew = Math.min(...next.map((iv) => iv.start));
    assert.ok(lastOld < firstNew, `the old leader reconciled until ${lastOld}, the successor from ${firstNew}`);
    t.diagnostic(`gap between the old leader's last reconcile and the successor's first: ${firstNew - lastOld} ms`);
  }

  it('hands over after the leader is SIGKILLed, within a lease and two retry periods (stretched by load), with no overlapping reconciles', async (t) => {
    const run = await handOver(
      t,
      'kill',
      async (leader) => {
        const at = Date.now();
        leader.child.kill('SIGKILL');
        return at;
      },
      SHORT,
    );
    assertHandedOver(t, await run.intervals(), run.leader, run.successor);
  });

  it('keeps a leader frozen past its lease (SIGSTOP) from reconciling when it wakes (SIGCONT), and it exits as lost', async (t) => {
    const run = await handOver(
      t,
      'stop',
      async (leader) => {
        leader.child.kill('SIGUSR2');
        // Handling the signal is the process's own work, bounded like its start-up.
        return leader.waitFor('freezing', PROCESS_START_MS);
      },
      SHORT,
    );
    run.leader.child.kill('SIGCONT');
    assert.equal(await run.leader.exited, 1, `output: ${run.leader.lines.join(' | ')}`);
    assert.match(run.leader.lines.find((l) => l.startsWith('lost')) ?? '', /CONVERGE_LEADER_ELECTION_LOST/);
    const intervals = await run.intervals();
    const afterWake = intervals.filter((iv) => iv.identity === run.leader.identity && iv.start >= run.disruptedAt);
    assert.deepEqual(afterWake, [], 'no reconcile started after the freeze');
    assertHandedOver(t, intervals, run.leader, run.successor);
  });

  // Twenty freezes of one pair of processes that rejoin the election after each loss, so that only two
  // TypeScript processes start (about 3.5 s of CPU each). Every write of the Lease and of the beats is
  // followed in the server's own order (resourceVersion): a beat of one replica landing while the Lease
  // names the other is a write that reached the server after its lease had passed on.
  it('refuses every write of a leader frozen mid-reconcile (SIGSTOP) once it wakes (SIGCONT) after its successor leads: 20 freezes of a pair that rejoins, 0 late writes', async (t) => {
    const leaseId = 'rejoin';
    const identities = [`${leaseId}-a`, `${leaseId}-b`];
    const history: { rv: bigint; kind: 'lease' | 'beat'; who: string }[] = [];
    const following = new AbortController();
    const follow = async <T extends KubeObject>(
      resource: ResourceDescriptor<T>,
      kind: 'lease' | 'beat',
      who: (o: T) => string | undefined,
    ) => {
      const list = await admin.list(resource, { namespace: 'default' });
      const events = await admin.watch(resource, {
        namespace: 'default',
        resourceVersion: list.metadata.resourceVersion,
        signal: following.signal,
      });
      try {
        for await (const e of events) {
          if (e.type !== 'ADDED' && e.type !== 'MODIFIED') continue;
          const name = who(e.object);
          if (name !== undefined) history.push({ rv: BigInt(e.object.metadata.resourceVersion!), kind, who: name });
        }
      } catch (err) {
        if (!following.signal.aborted) throw err;
      }
    };
    const followed = Promise.all([
      follow(LeaseResource, 'lease', (l) => (l.metadata.name === leaseId ? (l.spec?.holderIdentity ?? '') : undefined)),
      follow(ConfigMapResource, 'beat', (cm) => identities.find((id) => cm.metadata.name === `beat-${id}`)),
    ]);
    const intervalsPath = join(dir, `${leaseId}.intervals`);
    await writeFile(intervalsPath, '');
    const start = async (identity: string): Promise<Member> => {
      const proxy = await startTcpProxy(Number(new URL(api.url).port));
      const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', writerFixture], {
        env: {
          ...process.env,
          IDENTITY: identity,
          LEASE_ID: leaseId,
          INTERVALS_PATH: intervalsPath,
          KUBECONFIG_PATH: await kubeconfigThrough(proxy, identity),
          TIMINGS: `${REJOIN.leaseDurationMs},${REJOIN.renewDeadlineMs},${REJOIN.retryPeriodMs}`,
          ON_LOSS: 'rejoin',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      return new Member(identity, child, proxy);
    };
    const members = await Promise.all(identities.map(start));
    t.after(async () => {
      following.abort();
      await followed;
      for (const m of members) await m.kill();
    });
    await Promise.all(members.map((m) => m.waitFor('standby', PROCESS_START_MS)));
    await eventually(() => members.some((m) => m.has('leading')), { timeoutMs: takeoverBoundMs(REJOIN), message: 'a leader' });
    let leader = members.find((m) => m.has('leading'))!;
    let standby = members.find((m) => m !== leader)!;
    const takeovers: number[] = [];
    /** Waits for three more writes of `m` to reach the server, so that each term gives the verdict below something to judge. */
    const writing = async (m: Member): Promise<void> => {
      const beatsOf = () => history.filter((e) => e.kind === 'beat' && e.who === m.identity).length;
      const before = beatsOf();
      await eventually(() => beatsOf() >= before + 3, { timeoutMs: PROCESS_START_MS, message: `${m.identity} writing` });
    };
    for (let round = 1; round <= 20; round++) {
      const seen = { freezing: leader.count('freezing'), refused: leader.count('refused'), leading: standby.count('leading') };
      await writing(leader);
      leader.child.kill('SIGUSR2');
      // Handling the signal is the process's own work, bounded like its start-up.
      const frozenAt = await leader.waitForNth('freezing', seen.freezing + 1, PROCESS_START_MS);
      const ledAt = await standby.waitForNth('leading', seen.leading + 1, takeoverBoundMs(REJOIN));
      takeovers.push(ledAt - frozenAt);
      leader.child.kill('SIGCONT');
      const refused = await leader.waitForNth('refused', seen.refused + 1, PROCESS_START_MS);
      assert.ok(refused >= ledAt, `round ${round}: the write refused on waking was made at ${refused}, its successor led from ${ledAt}`);
      [leader, standby] = [standby, leader];
    }
    await writing(leader);
    const late: string[] = [];
    let holder = '';
    for (const e of [...history].sort((x, y) => (x.rv < y.rv ? -1 : 1))) {
      if (e.kind === 'lease') holder = e.who;
      else if (e.who !== holder) late.push(`${e.who} wrote at resourceVersion ${e.rv} while the Lease named ${holder || 'nobody'}`);
    }
    const beats = history.filter((e) => e.kind === 'beat').length;
    t.diagnostic(
      `20 freezes, ${beats} writes reached the server, ${late.length} of them after the writer's lease had passed on; ` +
        `successor led ${Math.min(...takeovers)}–${Math.max(...takeovers)} ms after each freeze (lease ${REJOIN.leaseDurationMs} ms)`,
    );
    assert.deepEqual(late, []);
    assert.equal(
      members.every((m) => m.count('lost') === 0),
      true,
      'neither process exited',
    );
  });

  it('stops a leader cut off by a network blackhole at its renew deadline, before the successor takes over', async (t) => {
    const run = await handOver(
      t,
      'blackhole',
      async (leader) => {
        const at = Date.now();
        leader.proxy.blackhole();
        return at;
      },
      RE_ARMED,
    );
    const lostAt = await run.leader.waitFor('lost', renewDeadlineBoundMs(RE_ARMED));
    t.diagnostic(`the blackholed leader stopped ${lostAt - run.disruptedAt} ms after the blackhole began`);
    assertHandedOver(t, await run.intervals(), run.leader, run.successor);
  });
});
