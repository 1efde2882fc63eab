/**
 * Stands in for `zod` in the proxy's bundle (wrangler.jsonc `alias`). hono-openapi's schema
 * converters import zod lazily for zod schemas, which the proxy never has (its schemas are
 * valibot); without this, the bundler ships the zod that another package installed, doubling
 * the Worker's size for code that never runs.
 */
export {};
