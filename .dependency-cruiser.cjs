// The import rules of the code base, checked by `npm run imports` (part of `npm test`):
// no import cycles, the parts apart (docs/architecture.md), and inside the proxy and the extension,
// layers that import only downward. Tests and test support (`*.test.ts`, `testing/`, `test/`) may
// import any layer of what they test, but never form a cycle.

/**
 * Each program's layers, top first. A module imports only modules of its own folder or of a layer
 * below its own; folders in the same layer do not import each other. Paths are relative to the root.
 */
const LAYERS = {
  proxy: [
    // The Worker's entry composes the routes' sub-apps and exports the Durable Object classes.
    ['worker/proxy/index\\.ts$'],
    ['worker/proxy/routes/'],
    ['worker/proxy/objects/'],
    ['worker/proxy/domain/'],
    ['worker/proxy/infra/'],
  ],
  // docs/architecture.md ("The extension") says what each folder holds and why this order.
  extension: [
    ['extension/entrypoints/'],
    ['extension/components/'],
    // The service worker's wiring: menus, keyboard, notification clicks, the sync engine.
    ['extension/lib/background/'],
    // The studio (storyboards, batches, compare, history, export): built on Generate and Tasks.
    ['extension/lib/studio/'],
    // Features that build on the ones below them.
    ['extension/lib/saving/', 'extension/lib/page-media/', 'extension/lib/generate/', 'extension/lib/portrait/'],
    ['extension/lib/capture/', 'extension/lib/library/', 'extension/lib/tasks/', 'extension/lib/budget/', 'extension/lib/connect/', 'extension/lib/popup/'],
    // The pipeline: the queue sends creates (and through uploads/, bytes); the poller follows them.
    ['extension/lib/queue/', 'extension/lib/poll/'],
    ['extension/lib/uploads/'],
    // Talking to the other parts: the background (messages, syncSoon, notifications) and the proxy.
    ['extension/lib/messaging/', 'extension/lib/proxy/'],
    ['extension/lib/storage/'],
    ['extension/lib/i18n/', 'extension/lib/format/'],
  ],
};

const TESTS = '(\\.test\\.tsx?$|/testing/|^test/)';
const escapeless = (pattern) => `^${pattern}`;

/** Every module of a program (tests and test support aside) sits in one of its layers. */
function placedRule(program, layers) {
  const root = { proxy: 'worker/proxy/', extension: 'extension/' }[program];
  return {
    name: `${program}-module-outside-layers`,
    comment: `every module under ${root} belongs to one of its layers (.dependency-cruiser.cjs)`,
    severity: 'error',
    from: { path: `^${root}`, pathNot: [TESTS, ...layers.flat().map(escapeless)] },
    to: {},
  };
}

/** Forbids every import from a layer to a layer above it, and between two folders of one layer. */
function layerRules(program, layers) {
  const rules = [];
  layers.forEach((layer, index) => {
    const above = layers.slice(0, index).flat();
    for (const folder of layer) {
      if (above.length > 0) {
        rules.push({
          name: `${program}-layers-upward`,
          comment: `${folder} sits below ${above.join(', ')}: it must not import them (docs/architecture.md)`,
          severity: 'error',
          from: { path: escapeless(folder), pathNot: TESTS },
          to: { path: above.map(escapeless) },
        });
      }
      const peers = layer.filter((other) => other !== folder);
      if (peers.length > 0) {
        rules.push({
          name: `${program}-layers-sideways`,
          comment: `${folder} and ${peers.join(', ')} are one layer: neither imports the other`,
          severity: 'error',
          from: { path: escapeless(folder), pathNot: TESTS },
          to: { path: peers.map(escapeless) },
        });
      }
    }
  });
  return [placedRule(program, layers), ...rules];
}

/** The parts: shared code imports no part; the proxy, the sandbox and the extension none of each other. */
const PARTS = [
  { name: 'shared-imports-no-part', from: '^shared/', to: '^(worker|extension|scripts|test)/' },
  { name: 'proxy-apart', from: '^worker/proxy/', to: '^(worker/sandbox|extension|scripts)/' },
  { name: 'sandbox-apart', from: '^worker/sandbox/', to: '^(worker/proxy|extension|scripts)/' },
  { name: 'extension-apart', from: '^extension/', to: '^(worker|scripts)/' },
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: one of these modules should own what the others need',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...PARTS.map(({ name, from, to }) => ({
      name,
      severity: 'error',
      from: { path: from, pathNot: TESTS },
      to: { path: to },
    })),
    ...Object.entries(LAYERS).flatMap(([program, layers]) => layerRules(program, layers)),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|\\.output|\\.wxt|\\.wrangler)/' },
    // Type-only imports count: a layer that names a type of the layer above depends on it.
    tsPreCompilationDeps: true,
    // The extension's `@/` aliases are committed in the root tsconfig (not only WXT's generated one).
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
