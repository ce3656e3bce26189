/**
 * A zod schema built on its first use (issue 34 item 1). The features' module-level schemas (the
 * wire answers, the query model, pipelines, watches, the paged results: about 500 zod objects)
 * were all built while dist/features.js loaded, before anything was checked; most are never used
 * in a session. `lazySchema(() => z.…)` stands where the schema stood, with the same type: the
 * first read of any of its members builds it, once, and every later read goes to that one schema.
 * Held by test/unit/core/lazySchema.test.ts and test/unit/house/thinEntry.test.ts (loading the
 * built features constructs no schema).
 */

/** `build()`'s result, made on the first read of any member and once; the stand-in keeps its type, its methods and its instanceof. */
export function lazySchema<T extends object>(build: () => T): T {
  let real: T | undefined;
  // Methods bound to the built schema, once each: zod's members read `this`, which must be the schema, not the stand-in.
  const bound = new Map<PropertyKey, { of: unknown; fn: unknown }>();
  const made = (): T => (real ??= build());
  return new Proxy({} as T, {
    get(_target, key) {
      const schema = made();
      const value: unknown = Reflect.get(schema, key, schema);
      if (typeof value !== 'function') return value;
      const cached = bound.get(key);
      if (cached?.of === value) return cached.fn;
      const fn: unknown = (value as (...a: unknown[]) => unknown).bind(schema);
      bound.set(key, { of: value, fn });
      return fn;
    },
    has: (_target, key) => Reflect.has(made(), key),
    set: (_target, key, value) => Reflect.set(made(), key, value),
    getPrototypeOf: () => Reflect.getPrototypeOf(made()),
  });
}
