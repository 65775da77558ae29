// The shape a package's TypeScript declarations give a kind: every property path with its type and
// whether it is optional, read from the `.d.ts` files with the TypeScript compiler's type checker (so
// interfaces that extend others, type aliases and imports across packages resolve as tsc resolves
// them). Invariant: the shape says only what TypeScript can say — integer and number are both
// `number`, and formats, patterns and bounds are not there; unions of literals become enums.
import ts from 'typescript';

/** A declared type, in the terms a JSON schema's structure uses. */
export type DeclaredShape =
  | { kind: 'object'; properties: Record<string, { shape: DeclaredShape; optional: boolean }>; values?: DeclaredShape }
  | { kind: 'array'; items: DeclaredShape }
  | { kind: 'string'; enum?: string[] }
  | { kind: 'number'; enum?: number[] }
  | { kind: 'boolean' }
  | { kind: 'int-or-string' };

/**
 * The shape of `property` of the interface `name` declared in the module `specifier` (resolved
 * from `fromDir`, as an import written in a file there would be).
 */
export function declaredShape(specifier: string, name: string, fromDir: string): DeclaredShape {
  const host = ts.createCompilerHost({});
  const entry = `${fromDir}/__declared_shape__.ts`;
  const source = `import type { ${name} } from '${specifier}';\nexport type Probe = ${name};\n`;
  const readFile = host.readFile.bind(host);
  host.readFile = (f) => (f === entry ? source : readFile(f));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (f) => f === entry || fileExists(f);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (f, v, ...rest) => (f === entry ? ts.createSourceFile(f, source, v) : getSourceFile(f, v, ...rest));
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    types: [],
  };
  const program = ts.createProgram([entry], options, host);
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(entry);
  const alias = file?.statements.find(ts.isTypeAliasDeclaration);
  if (alias === undefined) throw new Error(`cannot read ${name} from ${specifier}`);
  const problems = ts.getPreEmitDiagnostics(program, file);
  if (problems.length > 0) throw new Error(`${specifier}: ${ts.flattenDiagnosticMessageText(problems[0]!.messageText, '\n')}`);
  return shapeOf(checker, checker.getTypeAtLocation(alias.name), `${name}`);
}

function shapeOf(checker: ts.TypeChecker, type: ts.Type, path: string): DeclaredShape {
  if (type.isUnion()) return unionShape(checker, type, path);
  if (type.flags & ts.TypeFlags.String || type.isStringLiteral()) {
    return type.isStringLiteral() ? { kind: 'string', enum: [type.value] } : { kind: 'string' };
  }
  if (type.flags & ts.TypeFlags.Number || type.isNumberLiteral()) {
    return type.isNumberLiteral() ? { kind: 'number', enum: [type.value] } : { kind: 'number' };
  }
  if (type.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return { kind: 'boolean' };
  if (checker.isArrayType(type)) {
    const [item] = checker.getTypeArguments(type as ts.TypeReference);
    return { kind: 'array', items: shapeOf(checker, item!, `${path}[]`) };
  }
  if (type.flags & ts.TypeFlags.Object) {
    const properties: Record<string, { shape: DeclaredShape; optional: boolean }> = {};
    for (const p of checker.getPropertiesOfType(type)) {
      const declared = checker.getNonNullableType(checker.getTypeOfSymbol(p));
      properties[p.name] = {
        shape: shapeOf(checker, declared, `${path}.${p.name}`),
        optional: (p.flags & ts.SymbolFlags.Optional) !== 0,
      };
    }
    const index = checker.getIndexTypeOfType(type, ts.IndexKind.String);
    return index === undefined
      ? { kind: 'object', properties }
      : { kind: 'object', properties, values: shapeOf(checker, index, `${path}[*]`) };
  }
  throw new Error(`${path}: no shape for ${checker.typeToString(type)}`);
}

/** `true | false` is boolean, string or number literals are an enum, `number | string` is int-or-string. */
function unionShape(checker: ts.TypeChecker, type: ts.UnionType, path: string): DeclaredShape {
  const members = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
  if (members.length === 1) return shapeOf(checker, members[0]!, path);
  if (members.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) return { kind: 'boolean' };
  if (members.every((t) => t.isStringLiteral())) return { kind: 'string', enum: members.map((t) => (t as ts.StringLiteralType).value) };
  if (members.every((t) => t.isNumberLiteral())) return { kind: 'number', enum: members.map((t) => (t as ts.NumberLiteralType).value) };
  const flags = members.map((t) => t.flags);
  if (members.length === 2 && flags.some((f) => f & ts.TypeFlags.Number) && flags.some((f) => f & ts.TypeFlags.String)) {
    return { kind: 'int-or-string' };
  }
  throw new Error(`${path}: no shape for the union ${checker.typeToString(type)}`);
}
