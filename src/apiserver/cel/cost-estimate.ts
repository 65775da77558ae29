/**
 * The static cost estimate of an expression, computed the way cel-go's estimator reasons: every
 * identifier, field selection, index and call costs 1; string functions cost a tenth of the
 * string's length; an authorization check costs 350 000 and a selector its parse; a comprehension
 * costs its body times the largest number of elements its range can hold (declared
 * `maxItems`/`maxProperties`, else what a 3 MiB request could carry). The same walk follows the
 * declared types, so selecting a field the schema does not declare is a compile error (`undefined
 * field 'x'`), as in kube-apiserver. The estimate is a worst case, never a measurement.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import { DYN, maxElements, maxLength, type CelType, type Declarations } from './types.js';
import { CHECK_COST, selectorCost } from './lib-authz.js';

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
  cost: number;
  /** The largest length (strings) or element count (lists, maps) the value can have. */
  size: number;
}

type Scope = ReadonlyMap<string, Estimate>;

const STRING: CelType = { kind: 'string' };
const traversal = (size: number): number => Math.ceil(size * 0.1);
const LIST_CREATE_COST = 10;
const MAP_CREATE_COST = 30;

/** Functions whose cost grows with their receiver's (or first argument's) length. */
const LINEAR_STRING_FUNCTIONS = new Set([
  'contains',
  'startsWith',
  'endsWith',
  'indexOf',
  'lastIndexOf',
  'lowerAscii',
  'upperAscii',
  'trim',
  'replace',
  'split',
  'substring',
  'charAt',
  'reverse',
  'join',
  'quote',
  'format',
  'string',
  'int',
  'double',
  'bytes',
  'url',
  'isURL',
  'ip',
  'isIP',
  'cidr',
  'isCIDR',
  'quantity',
  'isQuantity',
  'validate',
  'base64',
]);
const REGEX_FUNCTIONS = new Set(['matches', 'find', 'findAll']);
const LINEAR_LIST_FUNCTIONS = new Set([
  'isSorted',
  'sum',
  'min',
  'max',
  'indexOf',
  'lastIndexOf',
  'slice',
  'flatten',
  'distinct',
  'reverse',
  'sort',
]);
const QUANTIFIERS = new Set(['all', 'exists', 'exists_one']);
const TRANSFORMS = new Set(['map', 'filter']);

const sized = (type: CelType): Estimate => ({
  type,
  cost: 0,
  size: type.kind === 'string' || type.kind === 'bytes' ? maxLength(type) : maxElements(type),
});

/** The estimated worst-case cost of `ast` under `declarations`; throws `CelCompileError` for a field the types do not have. */
export function estimateCost(ast: ASTNode, declarations: Declarations): number {
  const scope = new Map(Object.entries(declarations).map(([k, t]) => [k, sized(t)]));
  return estimate(ast, scope).cost;
}

function literal(value: unknown): Estimate {
  if (typeof value === 'string') return { type: STRING, cost: 0, size: value.length };
  if (typeof value === 'bigint') return { type: { kind: 'int' }, cost: 0, size: 1 };
  if (typeof value === 'number') return { type: { kind: 'double' }, cost: 0, size: 1 };
  if (typeof value === 'boolean') return { type: { kind: 'bool' }, cost: 0, size: 1 };
  return { type: DYN, cost: 0, size: 1 };
}

/**
 * Map keys have no declarable bound; like kube-apiserver's declared key type they are costed as
 * short strings, or no rule iterating over a map's keys (`self.all(k, k.matches(…))`) would pass.
 */
const MAP_KEY: CelType = { kind: 'string', maxLength: 1 };

function elementOf(t: CelType): CelType {
  if (t.kind === 'list') return t.items;
  if (t.kind === 'map' || t.kind === 'object') return MAP_KEY;
  return DYN;
}

function select(operand: Estimate, field: string, node: ASTNode, optional: boolean): Estimate {
  const t = operand.type.kind === 'optional' ? operand.type.of : operand.type;
  let type: CelType = DYN;
  if (t.kind === 'object') {
    const f = t.fields[field];
    if (f === undefined) throw new CelCompileError(`undefined field '${field}'`, node.pos - 1);
    type = f;
  } else if (t.kind === 'map') type = t.values;
  const out = sized(optional ? { kind: 'optional', of: type } : type);
  return { ...out, cost: operand.cost + 1, size: sized(type).size };
}

function estimate(node: ASTNode, scope: Scope): Estimate {
  const n = node as unknown as { op: string; args: unknown };
  switch (n.op) {
    case 'value':
      return literal(n.args);
    case 'id': {
      const found = scope.get(n.args as string);
      return found === undefined ? { type: DYN, cost: 1, size: maxLength(DYN) } : { ...found, cost: 1 };
    }
    case '.':
    case '.?': {
      const [operand, field] = n.args as [ASTNode, string];
      return select(estimate(operand, scope), field, node, n.op === '.?');
    }
    case '[]':
    case '[?]': {
      const [operand, index] = n.args as [ASTNode, ASTNode];
      const o = estimate(operand, scope);
      const i = estimate(index, scope);
      const t = o.type.kind === 'optional' ? o.type.of : o.type;
      const literalKey =
        (index as unknown as { op: string; args: unknown }).op === 'value' ? (index as unknown as { args: unknown }).args : undefined;
      const e =
        t.kind === 'object' && typeof literalKey === 'string'
          ? select(o, literalKey, node, false)
          : sized(t.kind === 'list' ? t.items : t.kind === 'map' ? t.values : DYN);
      return { ...e, cost: o.cost + i.cost + 1 };
    }
    case 'list': {
      const items = (n.args as ASTNode[]).map((a) => estimate(a, scope));
      const first = items[0]?.type ?? DYN;
      return { type: { kind: 'list', items: first, maxItems: items.length }, cost: LIST_CREATE_COST + sum(items), size: items.length };
    }
    case 'map': {
      const entries = (n.args as [ASTNode, ASTNode][]).flatMap(([k, v]) => [estimate(k, scope), estimate(v, scope)]);
      return {
        type: { kind: 'map', values: DYN, maxProperties: entries.length / 2 },
        cost: MAP_CREATE_COST + sum(entries),
        size: entries.length / 2,
      };
    }
    case '?:': {
      const [c, a, b] = (n.args as ASTNode[]).map((x) => estimate(x, scope)) as [Estimate, Estimate, Estimate];
      const big = a.cost >= b.cost ? a : b;
      return { type: a.type, cost: c.cost + big.cost, size: Math.max(a.size, b.size) };
    }
    case '&&':
    case '||': {
      const [a, b] = (n.args as ASTNode[]).map((x) => estimate(x, scope)) as [Estimate, Estimate];
      return { type: { kind: 'bool' }, cost: a.cost + b.cost, size: 1 };
    }
    case '!_':
    case '-_': {
      const a = estimate(n.args as ASTNode, scope);
      return { ...a, cost: a.cost + 1 };
    }
    case 'call':
      return call(n.args as [string, ASTNode[]], undefined, scope);
    case 'rcall': {
      const [name, receiver, args] = n.args as [string, ASTNode, ASTNode[]];
      return call([name, args], receiver, scope);
    }
    default:
      return binary(n.op, n.args as [ASTNode, ASTNode], scope);
  }
}

const sum = (es: Estimate[]): number => es.reduce((a, e) => a + e.cost, 0);

/** Kinds whose values never compare equal to one of another kind: comparing them is a compile error, as in cel-go. */
const STRICT_KINDS = new Set(['bool', 'int', 'string', 'list', 'map', 'object', 'timestamp', 'duration', 'bytes']);
const celTypeName = (t: CelType): string => (t.kind === 'object' ? 'object' : t.kind);

function checkComparable(op: string, a: Estimate, b: Estimate, args: [ASTNode, ASTNode]): void {
  const [ka, kb] = [a.type.kind, b.type.kind];
  if (ka === kb || !STRICT_KINDS.has(ka) || !STRICT_KINDS.has(kb)) return;
  const source = (args[0] as unknown as { input: string }).input;
  const at = source.indexOf(op, args[0].end);
  throw new CelCompileError(
    `found no matching overload for '_${op}_' applied to '(${celTypeName(a.type)}, ${celTypeName(b.type)})'`,
    at < 0 ? args[0].end : at,
  );
}

function binary(op: string, args: [ASTNode, ASTNode], scope: Scope): Estimate {
  const [a, b] = args.map((x) => estimate(x, scope)) as [Estimate, Estimate];
  if (op === '==' || op === '!=') checkComparable(op, a, b, args);
  const base = a.cost + b.cost + 1;
  const isSized = (e: Estimate) => e.type.kind === 'string' || e.type.kind === 'list' || e.type.kind === 'bytes';
  switch (op) {
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return { type: { kind: 'bool' }, cost: base + (isSized(a) && isSized(b) ? traversal(Math.min(a.size, b.size)) : 0), size: 1 };
    case 'in':
      return { type: { kind: 'bool' }, cost: base + (b.type.kind === 'list' ? b.size : 0), size: 1 };
    case '+':
      if (isSized(a)) return { type: a.type, cost: base + traversal(a.size + b.size), size: a.size + b.size };
      return { type: a.type, cost: base, size: 1 };
    default:
      return { type: a.type, cost: base, size: 1 };
  }
}

function call([name, args]: [string, ASTNode[]], receiverNode: ASTNode | undefined, scope: Scope): Estimate {
  if (name === 'has' && receiverNode === undefined) {
    const inner = estimate(args[0]!, scope);
    return { type: { kind: 'bool' }, cost: inner.cost, size: 1 };
  }
  const isMacroForm = receiverNode !== undefined && (args[0] as unknown as { op?: string } | undefined)?.op === 'id';
  if (isMacroForm && (QUANTIFIERS.has(name) || TRANSFORMS.has(name)) && args.length >= 2)
    return comprehension(name, receiverNode, args, scope);
  if (isMacroForm && (name === 'optMap' || name === 'optFlatMap') && args.length === 2) {
    const r = estimate(receiverNode, scope);
    const inner = r.type.kind === 'optional' ? r.type.of : DYN;
    const bound = new Map(scope).set((args[0] as unknown as { args: string }).args, { ...sized(inner), cost: 0 });
    const body = estimate(args[1]!, bound);
    return { type: { kind: 'optional', of: body.type }, cost: r.cost + body.cost + 1, size: body.size };
  }
  if (name === 'bind' && receiverNode !== undefined && args.length === 3) {
    const init = estimate(args[1]!, scope);
    const bound = new Map(scope).set((args[0] as unknown as { args: string }).args, { ...init, cost: 0 });
    const body = estimate(args[2]!, bound);
    return { ...body, cost: init.cost + body.cost };
  }
  const receiver = receiverNode === undefined ? undefined : estimate(receiverNode, scope);
  const argEstimates = args.map((a) => estimate(a, scope));
  const subject = receiver ?? argEstimates[0];
  let cost = (receiver?.cost ?? 0) + sum(argEstimates) + 1;
  let size = 1;
  let type: CelType = DYN;
  if (REGEX_FUNCTIONS.has(name) && subject !== undefined) {
    const pattern = argEstimates[receiver === undefined ? 1 : 0];
    cost += traversal(subject.size) * Math.ceil(1 + 0.25 * (pattern?.size ?? 1));
    size = subject.size;
  } else if (LINEAR_LIST_FUNCTIONS.has(name) && subject?.type.kind === 'list') {
    cost += subject.size;
    size = subject.size;
    type = listResult(name, subject.type);
  } else if (LINEAR_STRING_FUNCTIONS.has(name) && subject !== undefined) {
    cost += traversal(subject.size);
    size = subject.size;
    type = STRING_RESULTS[name] ?? DYN;
  } else if (name === 'size') {
    type = { kind: 'int' };
  } else if (name === 'check' && receiver !== undefined) {
    cost += CHECK_COST - 1;
  } else if ((name === 'fieldSelector' || name === 'labelSelector') && argEstimates[0] !== undefined) {
    cost += selectorCost(argEstimates[0].size) - 1;
  }
  return { type, cost, size };
}

/** Result types of string functions, where certain; anything else is `dyn`, so no compile error is made up. */
const STRING_RESULTS: Readonly<Record<string, CelType>> = {
  ...Object.fromEntries(
    ['lowerAscii', 'upperAscii', 'trim', 'replace', 'substring', 'reverse', 'charAt', 'string', 'format', 'quote', 'join'].map((n) => [
      n,
      STRING,
    ]),
  ),
  indexOf: { kind: 'int' },
  lastIndexOf: { kind: 'int' },
  int: { kind: 'int' },
  double: { kind: 'double' },
  contains: { kind: 'bool' },
  startsWith: { kind: 'bool' },
  endsWith: { kind: 'bool' },
  split: { kind: 'list', items: STRING },
};

function listResult(name: string, list: CelType & { kind: 'list' }): CelType {
  if (name === 'isSorted') return { kind: 'bool' };
  if (name === 'indexOf' || name === 'lastIndexOf') return { kind: 'int' };
  if (name === 'min' || name === 'max' || name === 'sum') return list.items;
  if (name === 'flatten') return DYN;
  return list;
}

function comprehension(name: string, receiverNode: ASTNode, args: ASTNode[], scope: Scope): Estimate {
  const range = estimate(receiverNode, scope);
  const variable = (args[0] as unknown as { args: string }).args;
  const element = elementOf(range.type);
  const bound = new Map(scope).set(variable, { ...sized(element), cost: 0 });
  const body = args.slice(1).map((a) => estimate(a, bound));
  const perElement = sum(body) + (QUANTIFIERS.has(name) ? 1 : 2);
  const type: CelType = QUANTIFIERS.has(name)
    ? { kind: 'bool' }
    : { kind: 'list', items: name === 'filter' ? element : (body.at(-1)?.type ?? DYN), maxItems: range.size };
  return { type, cost: range.cost + range.size * perElement + 1, size: range.size };
}
