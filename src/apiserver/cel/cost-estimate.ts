/**
 * The static cost estimate of an expression, computed as kube-apiserver computes it: cel-go's
 * checker (checker/cost.go) over the macro-expanded expression, with the Kubernetes libraries'
 * call costs (cost-functions.ts) and apiextensions' size estimator. Each node has a cost range and
 * a size range; a value reached from a declared variable by a path of fields, `@items`, `@values`
 * and `@keys` is sized by its declaration (`declaredSize`: 0 for numbers and objects, a string's
 * or list's bound, or what a 3 MiB request could hold), a literal by itself, a call's result as its
 * library says, anything else as unbounded. The same walk follows the declared types, so selecting
 * a field the schema does not declare is a compile error (`undefined field 'x'`), as in
 * kube-apiserver. The estimate is a worst case, never a measurement.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import { DYN, declaredSize, type CelType, type Declarations } from './types.js';
import { celFieldName } from './field-names.js';
import { callEstimate, comparisonCost, concatenationCost, libraryEqualityCost, type Operand } from './cost-functions.js';
import { add, fixed, ONE, sumOf, multiply, union, UNKNOWN, ZERO, type Range } from './cost-range.js';

export class CelCompileError extends Error {
  override readonly name = 'CelCompileError';
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

interface Estimate {
  type: CelType;
  /** A library type the declared types cannot name (`quantity`, `ip`, …), for its equality cost. */
  opaque?: string;
  cost: Range;
  /** The size computed from the expression itself (a literal, a call's result, a concatenation). */
  size?: Range;
  /** The path from a declared variable, when the value is reached by one (cel-go's `Path()`). */
  path?: readonly string[];
  /** The size of a local variable, used when nothing else sizes it. */
  localSize?: Range;
  /** The size of the elements of a list or map built by the expression. */
  entry?: Range;
  /** Which of the two it built, known even when its static type is `dyn` (`dyn([1, 2])`). */
  entryKind?: 'list' | 'map';
  literal?: unknown;
}

interface Local {
  type: CelType;
  path: readonly string[];
  size?: Range;
  entry?: Range;
}

interface Context {
  declarations: Declarations;
  scope: ReadonlyMap<string, Local>;
  /** Where a CEL keyword may name its escaped field (from 1.31), the selections so resolved; undefined before. */
  keywords: KeywordSelection[] | undefined;
}

/** A selection of a CEL keyword (`self.namespace`) resolved to its escaped field (`__namespace__`): where it ends in the source. */
export interface KeywordSelection {
  end: number;
  field: string;
}

type Node = { op: string; args: unknown; pos: number; end: number; input?: string };

const STRING: CelType = { kind: 'string' };
const INT: CelType = { kind: 'int' };
const BOOL: CelType = { kind: 'bool' };
/** Map keys: kube declares them as strings of size 0, so costs over keys do not grow with them. */
const MAP_KEY: CelType = { kind: 'string', maxLength: 0 };
const LIST_CREATE = 10;
const MAP_CREATE = 30;
const NAMESPACES = new Set(['strings', 'sets', 'jsonpatch', 'format', 'optional', 'math', 'lists', 'base64', 'cel']);

/**
 * The estimated `{min, max}` cost of `ast` under `declarations`; throws `CelCompileError` for a
 * field the types do not have. Given `keywords`, a keyword names its escaped field, and each such
 * selection is added to it.
 */
export function estimateCostRange(ast: ASTNode, declarations: Declarations, keywords?: KeywordSelection[]): Range {
  return estimate(ast as unknown as Node, { declarations, scope: new Map(), keywords }).cost;
}

const unwrap = (t: CelType): CelType => (t.kind === 'optional' ? t.of : t);

/** apiextensions' size estimator: the declared type at `path`, walked from its variable's type. */
function declaredAt(path: readonly string[] | undefined, ctx: Context): CelType | undefined {
  if (path === undefined || path.length === 0) return undefined;
  // A path that starts at an iteration over a computed list is walked from `self`, as kube's estimator does.
  const rootType = ctx.declarations[path[0]!] ?? ctx.declarations['self'];
  if (rootType === undefined) return undefined;
  let t: CelType | undefined = unwrap(rootType);
  for (const step of path.slice(1)) {
    if (t === undefined) return undefined;
    if (step === '@items' || step === '@values') t = t.kind === 'list' ? t.items : t.kind === 'map' ? t.values : undefined;
    else if (step === '@keys') t = t.kind === 'map' ? MAP_KEY : undefined;
    else t = t.kind === 'object' ? t.fields[step] : undefined;
  }
  return t === undefined ? undefined : unwrap(t);
}

const SCALARS = new Set(['bool', 'int', 'double', 'duration', 'timestamp']);

/** cel-go's `sizeOrUnknown`: computed, else declared, else 1 for a scalar, else the local's, else unbounded. */
function sizeOf(e: Estimate, ctx: Context): Range {
  if (e.size !== undefined) return e.size;
  const declared = declaredAt(e.path, ctx);
  if (declared !== undefined) return { min: 0, max: declaredSize(declared) };
  if (e.opaque === undefined && SCALARS.has(unwrap(e.type).kind)) return ONE;
  return e.localSize ?? UNKNOWN;
}

const kindOf = (e: Estimate): string => e.opaque ?? unwrap(e.type).kind;

function operand(e: Estimate, ctx: Context): Operand {
  const t = unwrap(e.type);
  const element =
    t.kind === 'list'
      ? { kind: t.items.kind, size: sizeOf({ type: t.items, cost: ZERO, ...(e.path ? { path: [...e.path, '@items'] } : {}) }, ctx) }
      : undefined;
  return { kind: kindOf(e), size: sizeOf(e, ctx), literal: e.literal, element };
}

function literal(value: unknown): Estimate {
  const cost = ZERO;
  if (typeof value === 'string') return { type: STRING, cost, size: fixed([...value].length), literal: value };
  if (value instanceof Uint8Array) return { type: { kind: 'bytes' }, cost, size: fixed(value.length), literal: value };
  if (typeof value === 'bigint') return { type: INT, cost, size: ONE, literal: value };
  if (typeof value === 'number') return { type: { kind: 'double' }, cost, size: ONE, literal: value };
  if (typeof value === 'boolean') return { type: BOOL, cost, size: ONE, literal: value };
  if (value === null) return { type: { kind: 'null' }, cost, size: ONE, literal: value };
  return { type: INT, cost, size: ONE, literal: value };
}

function estimate(node: Node, ctx: Context): Estimate {
  switch (node.op) {
    case 'value':
      return literal(node.args);
    case 'id':
      return identifier(node.args as string, ctx);
    case '.':
      return select(node, ctx);
    case '.?': {
      const [o, field] = node.args as [Node, string];
      const e = estimate(o, ctx);
      return { type: { kind: 'optional', of: fieldType(unwrap(e.type), field, node, ctx)[0] }, cost: add(e.cost, ONE) };
    }
    case '[]':
    case '[?]':
      return index(node, ctx);
    case 'list': {
      const items = (node.args as Node[]).map((a) => estimate(a, ctx));
      const entry = items.length === 0 ? ZERO : items.map((i) => sizeOf(i, ctx)).reduce(union);
      const first = items[0]?.type ?? DYN;
      return {
        type: { kind: 'list', items: first, maxItems: items.length },
        cost: add(fixed(LIST_CREATE), sumOf(items.map((i) => i.cost))),
        size: fixed(items.length),
        entry,
        entryKind: 'list',
      };
    }
    case 'map': {
      const entries = node.args as [Node, Node][];
      const keys = entries.map(([k]) => estimate(k, ctx));
      const values = entries.map(([, v]) => estimate(v, ctx));
      const entry = values.length === 0 ? ZERO : values.map((v) => sizeOf(v, ctx)).reduce(union);
      return {
        type: { kind: 'map', values: values[0]?.type ?? DYN, maxProperties: entries.length },
        cost: add(fixed(MAP_CREATE), sumOf([...keys, ...values].map((e) => e.cost))),
        size: fixed(entries.length),
        entry,
        entryKind: 'map',
      };
    }
    case '?:': {
      const [c, a, b] = (node.args as Node[]).map((x) => estimate(x, ctx)) as [Estimate, Estimate, Estimate];
      return {
        type: a.type,
        cost: add(c.cost, union(a.cost, b.cost)),
        size: union(sizeOf(a, ctx), sizeOf(b, ctx)),
        ...(a.entry !== undefined && b.entry !== undefined ? { entry: union(a.entry, b.entry) } : {}),
      };
    }
    case '&&':
    case '||': {
      const [a, b] = (node.args as Node[]).map((x) => estimate(x, ctx)) as [Estimate, Estimate];
      // Short-circuiting: at least the left side, at most both.
      return { type: BOOL, cost: { min: a.cost.min, max: add(a.cost, b.cost).max } };
    }
    case '!_':
      return { type: BOOL, cost: add(estimate(node.args as Node, ctx).cost, ONE) };
    case '-_': {
      const inner = node.args as Node;
      // cel-go parses `-1` as one literal.
      if (inner.op === 'value' && (typeof inner.args === 'bigint' || typeof inner.args === 'number')) return literal(inner.args);
      const a = estimate(inner, ctx);
      return { type: a.type, cost: add(a.cost, ONE) };
    }
    case 'call':
      return call(node.args as [string, Node[]], undefined, ctx);
    case 'rcall': {
      const [name, receiver, args] = node.args as [string, Node, Node[]];
      return call([name, args], receiver, ctx);
    }
    default:
      return binary(node, ctx);
  }
}

function identifier(name: string, ctx: Context): Estimate {
  const local = ctx.scope.get(name);
  if (local !== undefined) {
    return {
      type: local.type,
      cost: ONE,
      path: local.path,
      ...(local.size !== undefined ? { localSize: local.size } : {}),
      ...(local.entry !== undefined ? { entry: local.entry } : {}),
    };
  }
  return { type: ctx.declarations[name] ?? DYN, cost: ONE, path: [name] };
}

/** The type of `field` of `t`, and the field's name there (a keyword's escaped one, where the context allows it). */
function fieldType(t: CelType, field: string, node: Node, ctx: Context): [CelType, string] {
  if (t.kind === 'object') {
    const f = t.fields[field];
    if (f !== undefined) return [f, field];
    // Only a keyword is escaped as `__name__` (other escapes spell out characters a selection cannot hold).
    const escaped = `__${field}__`;
    const byKeyword = ctx.keywords !== undefined && celFieldName(field) === escaped ? t.fields[escaped] : undefined;
    if (byKeyword === undefined) throw new CelCompileError(`undefined field '${field}'`, node.pos - 1);
    ctx.keywords!.push({ end: node.end, field });
    return [byKeyword, escaped];
  }
  return [t.kind === 'map' ? t.values : DYN, field];
}

function select(node: Node, ctx: Context): Estimate {
  const [o, field] = node.args as [Node, string];
  const e = estimate(o, ctx);
  const t = e.type;
  // Selecting through an optional (`a.?b.c`) keeps it optional.
  const [selected, name] = fieldType(unwrap(t), field, node, ctx);
  const type: CelType = t.kind === 'optional' ? { kind: 'optional', of: selected } : selected;
  // Selecting from a map or an object costs 1; from a dynamic value, nothing more than the value.
  const cost = t.kind === 'object' || t.kind === 'map' ? add(e.cost, ONE) : e.cost;
  return { type, cost, ...(e.path !== undefined ? { path: [...e.path, name] } : {}) };
}

function index(node: Node, ctx: Context): Estimate {
  const [o, i] = node.args as [Node, Node];
  const e = estimate(o, ctx);
  const k = estimate(i, ctx);
  const cost = add(add(e.cost, k.cost), ONE);
  const t = unwrap(e.type);
  if (node.op === '[?]') {
    const of = t.kind === 'list' ? t.items : t.kind === 'map' ? t.values : DYN;
    return { type: { kind: 'optional', of }, cost };
  }
  if (t.kind === 'object' && typeof k.literal === 'string') {
    return {
      type: fieldType(t, k.literal, node, { ...ctx, keywords: undefined })[0],
      cost,
      ...(e.path !== undefined ? { path: [...e.path, k.literal] } : {}),
    };
  }
  const type = t.kind === 'list' ? t.items : t.kind === 'map' ? t.values : DYN;
  const step = t.kind === 'list' ? '@items' : '@values';
  return {
    type,
    cost,
    ...(e.entry !== undefined ? { size: e.entry } : {}),
    ...(t.kind === 'list' || t.kind === 'map' ? { path: [...(e.path ?? []), step] } : {}),
  };
}

/** Kinds whose values never compare equal to one of another kind: comparing them is a compile error, as in cel-go. */
const STRICT_KINDS = new Set(['bool', 'int', 'string', 'list', 'map', 'object', 'timestamp', 'duration', 'bytes']);
const celTypeName = (t: CelType): string => (t.kind === 'object' ? 'object' : t.kind);

function checkComparable(op: string, a: Estimate, b: Estimate, args: [Node, Node]): void {
  const [ka, kb] = [a.type.kind, b.type.kind];
  if (ka === kb || !STRICT_KINDS.has(ka) || !STRICT_KINDS.has(kb)) return;
  const source = args[0].input ?? '';
  const at = source.indexOf(op, args[0].end);
  throw new CelCompileError(
    `found no matching overload for '_${op}_' applied to '(${celTypeName(a.type)}, ${celTypeName(b.type)})'`,
    at < 0 ? args[0].end : at,
  );
}

const SIZED = new Set(['string', 'bytes']);
const DYNAMIC = new Set(['dyn', 'intOrString']);

function binary(node: Node, ctx: Context): Estimate {
  const op = node.op;
  const args = node.args as [Node, Node];
  const [a, b] = args.map((x) => estimate(x, ctx)) as [Estimate, Estimate];
  const operands = add(a.cost, b.cost);
  const [ka, kb] = [kindOf(a), kindOf(b)];
  switch (op) {
    case '==':
    case '!=': {
      checkComparable(op, a, b, args);
      const library = op === '==' ? libraryEqualityCost(operand(a, ctx), operand(b, ctx)) : undefined;
      const own = library ?? comparisonCost(sizeOf(a, ctx), sizeOf(b, ctx));
      return { type: BOOL, cost: add(operands, own) };
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const scan = SIZED.has(ka) || SIZED.has(kb) ? comparisonCost(sizeOf(a, ctx), sizeOf(b, ctx)) : ONE;
      return { type: BOOL, cost: add(operands, scan) };
    }
    case 'in':
      return { type: BOOL, cost: add(operands, kb === 'list' ? sizeOf(b, ctx) : ONE) };
    case '+':
      return plus(a, b, operands, ctx);
    default:
      return { type: a.type, cost: add(operands, ONE) };
  }
}

/** `+`: strings and bytes cost a tenth of the result; lists and numbers 1; between two dynamic values, either. */
function plus(a: Estimate, b: Estimate, operands: Range, ctx: Context): Estimate {
  const [ka, kb] = [kindOf(a), kindOf(b)];
  const size = add(sizeOf(a, ctx), sizeOf(b, ctx));
  const kind = DYNAMIC.has(ka) ? kb : ka;
  if (SIZED.has(kind)) return { type: a.type, cost: add(operands, concatenationCost(size)), size };
  if (kind === 'list') {
    return {
      type: a.type,
      cost: add(operands, ONE),
      size,
      ...(a.entry !== undefined && b.entry !== undefined ? { entry: union(a.entry, b.entry) } : {}),
    };
  }
  if (DYNAMIC.has(kind)) return { type: DYN, cost: add(operands, union(ONE, concatenationCost(size))), size };
  return { type: a.type, cost: add(operands, ONE) };
}

const QUANTIFIERS = new Set(['all', 'exists', 'exists_one']);
const TRANSFORMS = new Set(['transformList', 'transformMap', 'transformMapEntry']);
const isIdent = (n: Node | undefined): n is Node => n?.op === 'id';

/** A two-variable comprehension: a quantifier with three arguments, or a transform with three or four. */
const isTwoVariable = (name: string, args: Node[]): boolean =>
  isIdent(args[1]) &&
  (((QUANTIFIERS.has(name) || name === 'existsOne') && args.length === 3) ||
    (TRANSFORMS.has(name) && (args.length === 3 || args.length === 4)));

function call([name, args]: [string, Node[]], receiverNode: Node | undefined, ctx: Context): Estimate {
  if (name === 'has' && receiverNode === undefined) {
    // A presence test costs nothing beyond its operand in kube-apiserver (PresenceTestHasCost(false)).
    const arg = args[0]!;
    if (arg.op === '.') {
      const [o, field] = arg.args as [Node, string];
      const e = estimate(o, ctx);
      fieldType(unwrap(e.type), field, arg, ctx);
      return { type: BOOL, cost: e.cost };
    }
    return { type: BOOL, cost: estimate(arg, ctx).cost };
  }
  if (receiverNode !== undefined && isIdent(args[0])) {
    if ((QUANTIFIERS.has(name) && args.length === 2) || ((name === 'map' || name === 'filter') && args.length >= 2)) {
      return comprehension(name, receiverNode, args, ctx);
    }
    if (isTwoVariable(name, args)) return twoVariableComprehension(name, receiverNode, args, ctx);
    if (name === 'sortBy' && args.length === 2) {
      // cel-go's expansion: the keys as `map` makes them, then the list sorted by them (one call).
      const keys = comprehension('map', receiverNode, args, ctx);
      const range = estimate(receiverNode, ctx);
      return { ...range, cost: add(add(keys.cost, range.cost), ONE) };
    }
    if ((name === 'optMap' || name === 'optFlatMap') && args.length === 2) return optionalMap(name, receiverNode, args, ctx);
    if (name === 'bind' && isIdent(receiverNode) && receiverNode.args === 'cel' && args.length === 3) return bind(args, ctx);
  }
  let qualified = name;
  let receiver: Estimate | undefined;
  if (receiverNode !== undefined) {
    const ns = isIdent(receiverNode) ? (receiverNode.args as string) : undefined;
    if (ns !== undefined && NAMESPACES.has(ns) && !ctx.scope.has(ns) && ctx.declarations[ns] === undefined) qualified = `${ns}.${name}`;
    else receiver = estimate(receiverNode, ctx);
  }
  const argEstimates = args.map((a) => estimate(a, ctx));
  const cost = add(receiver?.cost ?? ZERO, sumOf(argEstimates.map((a) => a.cost)));
  if (qualified === 'dyn' && argEstimates[0] !== undefined) {
    const inner = argEstimates[0];
    const out: Estimate = { type: DYN, cost: add(cost, ONE), size: sizeOf(inner, ctx) };
    if (inner.entry !== undefined) out.entry = inner.entry;
    const kind = inner.entryKind ?? (unwrap(inner.type).kind === 'list' ? 'list' : undefined);
    if (kind !== undefined) out.entryKind = kind;
    return out;
  }
  const own = callEstimate(
    qualified,
    receiver === undefined ? undefined : operand(receiver, ctx),
    argEstimates.map((a) => operand(a, ctx)),
  );
  const subject = receiver ?? argEstimates[0];
  const out: Estimate = { type: resultType(qualified, subject), cost: add(cost, own.cost) };
  const opaque =
    OPAQUE_RESULTS[qualified] ??
    (qualified.startsWith('format.') ? 'format' : PRESERVES_OPAQUE.has(qualified) ? receiver?.opaque : undefined);
  if (opaque !== undefined) out.opaque = opaque;
  if (own.resultSize !== undefined) out.size = own.resultSize;
  return out;
}

/** Library types, by the function that makes them. */
const OPAQUE_RESULTS: Readonly<Record<string, string>> = {
  quantity: 'quantity',
  ip: 'ip',
  cidr: 'cidr',
  semver: 'semver',
  url: 'url',
};

/** Methods whose result is of their receiver's library type (`q.add(…)` is a quantity, `o.value()` what `o` holds). */
const PRESERVES_OPAQUE = new Set(['add', 'sub', 'value', 'orValue']);

/** Result types of functions, where certain; anything else is `dyn`, so no compile error is made up. */
const RESULTS: Readonly<Record<string, CelType>> = {
  ...Object.fromEntries(
    ['lowerAscii', 'upperAscii', 'trim', 'replace', 'substring', 'charAt', 'string', 'format', 'strings.quote', 'join', 'find'].map((n) => [
      n,
      STRING,
    ]),
  ),
  ...Object.fromEntries(
    [
      'contains',
      'startsWith',
      'endsWith',
      'matches',
      'isSorted',
      'isQuantity',
      'isURL',
      'isIP',
      'isCIDR',
      'isSemver',
      'hasValue',
      'sets.contains',
      'sets.intersects',
      'sets.equivalent',
    ].map((n) => [n, BOOL]),
  ),
  ...Object.fromEntries(['size', 'int', 'indexOf', 'lastIndexOf'].map((n) => [n, INT])),
  double: { kind: 'double' },
  bool: BOOL,
  split: { kind: 'list', items: STRING },
  findAll: { kind: 'list', items: STRING },
  timestamp: { kind: 'timestamp' },
  duration: { kind: 'duration' },
};

function resultType(name: string, subject: Estimate | undefined): CelType {
  const known = RESULTS[name];
  if (known !== undefined) return known;
  const t = subject === undefined ? DYN : unwrap(subject.type);
  if (t.kind !== 'list') return DYN;
  if (name === 'min' || name === 'max' || name === 'sum') return t.items;
  if (['slice', 'distinct', 'reverse', 'sort'].includes(name)) return t;
  return DYN;
}

/** The iteration variable of a comprehension over `range`, sized and pathed as cel-go pushes it. */
function iterationLocal(range: Estimate): Local {
  const t = unwrap(range.type);
  const isList = t.kind === 'list' || range.entryKind === 'list';
  const element: CelType = t.kind === 'list' ? t.items : t.kind === 'map' || t.kind === 'object' ? MAP_KEY : DYN;
  const local: Local = { type: element, path: [...(range.path ?? []), isList ? '@items' : '@keys'] };
  if (isList && range.entry !== undefined) local.size = range.entry;
  return local;
}

/**
 * A macro as cel-go expands it: the range once, the accumulator's initial value and the result
 * once, and each element the loop condition plus the step. `all` tests `@not_strictly_false(r)` and
 * steps `r && p` (3 + p per element), `exists` negates first (4 + p), `exists_one` steps
 * `p ? r + 1 : r` and ends with `r == 1`; `map` and `filter` start from `[]` and append a one-element
 * list (12 + f, or 13 for `filter`'s element).
 */
function comprehension(name: string, receiverNode: Node, args: Node[], ctx: Context): Estimate {
  const range = estimate(receiverNode, ctx);
  const count = sizeOf(range, ctx);
  const variable = args[0]!.args as string;
  const locals: [string, Local][] = [[variable, iterationLocal(range)]];
  const inner: Context = { ...ctx, scope: new Map([...ctx.scope, ...locals]) };
  const body = args.slice(1).map((a) => estimate(a, inner));
  const predicate = body[0]!;
  let perElement: Range;
  let fixedCost: Range;
  let out: Omit<Estimate, 'cost'>;
  switch (name) {
    case 'all':
      perElement = { min: 3, max: 3 + predicate.cost.max };
      fixedCost = ONE;
      out = { type: BOOL, size: ONE };
      break;
    case 'exists':
      perElement = { min: 4, max: 4 + predicate.cost.max };
      fixedCost = ONE;
      out = { type: BOOL, size: ONE };
      break;
    case 'exists_one':
      perElement = { min: predicate.cost.min + 1, max: predicate.cost.max + 2 };
      fixedCost = fixed(2);
      out = { type: BOOL, size: ONE };
      break;
    case 'filter': {
      perElement = { min: predicate.cost.min + 1, max: predicate.cost.max + 13 };
      fixedCost = fixed(LIST_CREATE + 1);
      const x = identifier(variable, inner);
      out = { type: { kind: 'list', items: locals[0]![1].type }, size: count, entry: union(ZERO, sizeOf(x, inner)) };
      break;
    }
    default: {
      const f = body.at(-1)!;
      const append = add(fixed(12), f.cost);
      perElement = body.length === 2 ? add(predicate.cost, union(ONE, append)) : append;
      fixedCost = fixed(LIST_CREATE + 1);
      out = { type: { kind: 'list', items: f.type }, size: count, entry: union(ZERO, sizeOf(f, inner)) };
    }
  }
  return { ...out, cost: add(add(range.cost, fixedCost), multiply(count, perElement)) };
}

/**
 * A two-variable comprehension as cel-go expands it (ext/comprehensions.go): the quantifiers step
 * as their one-variable forms do; `transformList` appends as `map` does (12 + t per element);
 * `transformMap` steps `@mapInsert(r, k, t)` (3 + t) and `transformMapEntry` `@mapInsert(r, t)`
 * (2 + t), from a new map (30); a filter `f` makes the step `f ? step : r`. Over a list the first
 * variable is the index, over a map the key; the second is the element or the value.
 */
function twoVariableComprehension(name: string, receiverNode: Node, args: Node[], ctx: Context): Estimate {
  const range = estimate(receiverNode, ctx);
  const count = sizeOf(range, ctx);
  const t = unwrap(range.type);
  const overList = t.kind === 'list' || range.entryKind === 'list';
  const first: Local = overList ? { type: INT, path: [], size: ONE } : iterationLocal(range);
  const second: Local = overList
    ? iterationLocal(range)
    : { type: t.kind === 'map' ? t.values : DYN, path: t.kind === 'map' ? [...(range.path ?? []), '@values'] : [] };
  const inner: Context = {
    ...ctx,
    scope: new Map([...ctx.scope, [args[0]!.args as string, first], [args[1]!.args as string, second]]),
  };
  const body = args.slice(2).map((a) => estimate(a, inner));
  if (QUANTIFIERS.has(name) || name === 'existsOne') {
    const p = body[0]!.cost;
    const quantified =
      name === 'all' ? { min: 3, max: 3 + p.max } : name === 'exists' ? { min: 4, max: 4 + p.max } : { min: p.min + 1, max: p.max + 2 };
    const fixedCost = name === 'all' || name === 'exists' ? ONE : fixed(2);
    return { type: BOOL, size: ONE, cost: add(add(range.cost, fixedCost), multiply(count, quantified)) };
  }
  const transform = body.at(-1)!;
  const insert = name === 'transformList' ? fixed(12) : name === 'transformMap' ? fixed(3) : fixed(2);
  const step = add(insert, transform.cost);
  const perElement = body.length === 2 ? add(body[0]!.cost, union(ONE, step)) : step;
  const init = name === 'transformList' ? LIST_CREATE : MAP_CREATE;
  const out: Omit<Estimate, 'cost'> =
    name === 'transformList'
      ? { type: { kind: 'list', items: transform.type }, size: count, entry: union(ZERO, sizeOf(transform, inner)) }
      : { type: name === 'transformMap' ? { kind: 'map', values: transform.type } : { kind: 'map', values: DYN }, size: count };
  return { ...out, cost: add(add(range.cost, fixed(init + 1)), multiply(count, perElement)) };
}

/** `cel.bind(v, init, body)`: an empty iteration range (a list, 10), the initial value once, the body once. */
function bind(args: Node[], ctx: Context): Estimate {
  const init = estimate(args[1]!, ctx);
  const local: Local = { type: init.type, path: init.path ?? [] };
  const size = init.size ?? (init.path === undefined ? init.localSize : undefined);
  if (size !== undefined) local.size = size;
  if (init.entry !== undefined) local.entry = init.entry;
  const body = estimate(args[2]!, { ...ctx, scope: new Map(ctx.scope).set(args[0]!.args as string, local) });
  return { ...body, cost: add(add(fixed(LIST_CREATE), init.cost), body.cost) };
}

/**
 * `o.optMap(v, e)` is `o.hasValue() ? optional.of(cel.bind(v, o.value(), e)) : optional.none()`,
 * and `optFlatMap` the same without `optional.of`.
 */
function optionalMap(name: string, receiverNode: Node, args: Node[], ctx: Context): Estimate {
  const o = estimate(receiverNode, ctx);
  const inner = unwrap(o.type);
  const local: Local = { type: inner, path: [] };
  const body = estimate(args[1]!, { ...ctx, scope: new Map(ctx.scope).set(args[0]!.args as string, local) });
  const hasValue = add(o.cost, ONE);
  const bound = add(add(fixed(LIST_CREATE), add(o.cost, ONE)), body.cost);
  const present = name === 'optMap' ? add(bound, ONE) : bound;
  return {
    type: name === 'optMap' ? { kind: 'optional', of: body.type } : body.type,
    cost: add(hasValue, union(present, ONE)),
  };
}
