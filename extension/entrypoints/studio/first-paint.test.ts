import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What studio.html loads before its first paint is the static import graph of studio-main (the
 * shell); every view, the Generate form's rules, the engine and the MP4 join are chunks loaded with
 * `import()`. Measured in a build: about 20 KB gzipped up front (goal: under 80 KB). This keeps the
 * heavy parts out of the shell's static graph, where a stray import would pull them into it.
 */

const ROOT = resolve(__dirname, '../../..');
const EXTENSION = join(ROOT, 'extension');

function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith('@/') ? join(EXTENSION, spec.slice(2)) : spec.startsWith('@@/') ? join(ROOT, spec.slice(3)) : spec.startsWith('.') ? resolve(dirname(from), spec) : null;
  if (!base) return spec.startsWith('preact') || spec.startsWith('wxt') ? null : spec;
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find((c) => existsSync(c) && /\.tsx?$/.test(c)) ?? null;
}

/** Static value imports only (`import type` and `import()` load nothing up front). */
function staticGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.startsWith('/')) continue; // a package
    const source = readFileSync(file, 'utf8');
    const specs = [
      ...[...source.matchAll(/^\s*(?:import|export)\s+(type\s)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm)].flatMap((m) => (m[1] ? [] : [m[2]!])),
      ...[...source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]!),
    ];
    for (const spec of specs) {
      const target = resolveImport(file, spec);
      if (target && !target.endsWith('.css')) stack.push(target);
    }
  }
  return seen;
}

describe('the studio’s first paint', () => {
  const graph = [...staticGraph(join(EXTENSION, 'entrypoints/studio/studio-main.tsx'))].map((f) => (f.startsWith('/') ? relative(ROOT, f) : f));

  it('is the shell only: no view, no Generate rules, no engine, no MP4 join', () => {
    expect(graph).toContain('extension/entrypoints/studio/StudioApp.tsx');
    const heavy = graph.filter((f) => /entrypoints\/studio\/(storyboard|batch|compare|history)\/|StudioEngine|lib\/generate\/|lib\/studio\/|mp4-join|mediabunny|shared\/catalog/.test(f));
    expect(heavy).toEqual([]);
  });
});
