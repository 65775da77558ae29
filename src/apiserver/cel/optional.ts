/**
 * Optional values (`optional.of`, `optional.none`, `.?field`, `oldSelf` under `optionalOldSelf`)
 * come from the engine; this adds the `optMap` and `optFlatMap` macros Kubernetes rules use, and
 * a factory for optional values that library functions return.
 */
import type { Environment } from '@marcbachmann/cel-js';

export interface OptionalValue {
  hasValue(): boolean;
  value(): unknown;
}

export interface OptionalFactory {
  of(value: unknown): OptionalValue;
  none(): OptionalValue;
}

/** The engine's own optional type, reached through a value it makes (the class is not exported). */
export function optionalFactory(env: Environment): OptionalFactory {
  const none = env.evaluate('optional.none()') as OptionalValue;
  const ctor = none.constructor as unknown as OptionalFactory;
  return { of: (v) => ctor.of(v), none: () => none };
}

interface MacroContext {
  forkWithVariable(name: string, type: unknown): MacroContext;
  reuse(ctx: unknown): { setIterValue(value: unknown, ev: unknown): unknown };
}
interface Checker {
  check(node: unknown, ctx: unknown): { name?: string };
  getType(name: string): unknown;
  createError(code: string, message: string, node: unknown): Error;
}
interface Evaluator {
  run(node: unknown, ctx: unknown): unknown;
}
interface MacroNode {
  op: string;
  args: unknown;
}

/** `opt.optMap(x, expr)`: `expr` with `x` bound to the value, wrapped again; none stays none. */
export function registerOptionalMacros(env: Environment, optional: OptionalFactory): void {
  for (const flat of [false, true]) {
    const name = flat ? 'optFlatMap' : 'optMap';
    env.registerFunction(`optional.${name}(ast, ast): optional<dyn>`, (({ args, receiver }: { args: MacroNode[]; receiver: MacroNode }) => {
      const [variable, body] = args as [MacroNode, MacroNode];
      if (variable.op !== 'id') throw new Error(`${name}() variable name must be a simple identifier`);
      const macro = {
        bodyCtx: undefined as MacroContext | undefined,
        typeCheck(chk: Checker, _m: unknown, ctx: MacroContext) {
          chk.check(receiver, ctx);
          macro.bodyCtx = ctx.forkWithVariable(variable.args as string, chk.getType('dyn'));
          chk.check(body, macro.bodyCtx);
          return chk.getType('optional');
        },
        evaluate(ev: Evaluator, _m: unknown, ctx: unknown) {
          const opt = ev.run(receiver, ctx) as OptionalValue;
          if (!opt.hasValue()) return optional.none();
          const result = ev.run(body, macro.bodyCtx!.reuse(ctx).setIterValue(opt.value(), ev));
          return flat ? result : optional.of(result);
        },
      };
      return macro;
    }) as never);
  }
}
