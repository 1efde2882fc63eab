/**
 * Stands in for zod, effect, sury and their converters in the proxy's bundle (wrangler.jsonc
 * `alias`). hono-openapi's schema converters import them lazily for their own schemas, which the
 * proxy never has (its schemas are valibot): without this, the bundler ships the zod another
 * package installed (doubling the Worker) and leaves the others as imports nothing can resolve,
 * which Miniflare refuses to load.
 */
export {};
