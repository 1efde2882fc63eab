/**
 * The fuzz harness shared by the sandbox's and the proxy's fuzz tests (`worker/*\/fuzz.test.ts`,
 * `worker/proxy/team-identity.fuzz.test.ts`):
 * hostile bodies and request parts (arbitraries.ts), the fields of the shared schemas (fields.ts),
 * and a runner that checks every answer and prints a table (runner.ts).
 * `npm run fuzz` runs them with FUZZ_RUNS=10000; FUZZ_SEED picks another reproducible run.
 */
export * from './arbitraries';
export * from './fields';
export * from './runner';
