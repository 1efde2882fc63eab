import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '@/lib/i18n/en';

/**
 * Pages carry only their parts of the English strings (english-parts: the popup's core up front;
 * the other parts add themselves when a module that names their keys imports them). This walks each entrypoint's imports, static and dynamic,
 * as the bundler does, collects the message keys its code names (literals, and template prefixes
 * such as `capture.reason.${…}`), and checks each is in a part the page loads: a key missing there
 * would show as its name.
 */

const ROOT = resolve(__dirname, '../../..');
const EXTENSION = join(ROOT, 'extension');
const I18N = join(EXTENSION, 'lib/i18n');
/** The parts every context has up front: those english-parts imports. */
const CORE = [...readFileSync(join(I18N, 'english-parts.ts'), 'utf8').matchAll(/from '@\/lib\/i18n\/([a-z]+)\.en'/g)].map((m) => m[1]!);
const PARTS = readdirSync(I18N).flatMap((f) => (/^[a-z]+\.en\.ts$/.test(f) ? [f.slice(0, -'.en.ts'.length)] : []));
const KEYS = new Set(Object.keys(en));

/** The English part each key is in. */
const partOf = new Map<string, string>();
for (const part of PARTS) {
  const source = readFileSync(join(I18N, `${part}.en.ts`), 'utf8');
  for (const m of source.matchAll(/^ {2}'([^']+)':/gm)) partOf.set(m[1]!, part);
}

function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith('@/') ? join(EXTENSION, spec.slice(2)) : spec.startsWith('@@/') ? join(ROOT, spec.slice(3)) : spec.startsWith('.') ? resolve(dirname(from), spec) : null;
  if (!base) return null;
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find((c) => existsSync(c) && /\.tsx?$/.test(c)) ?? null;
}

/** Value imports of a module (not `import type`): static, side-effect and dynamic. */
function importsOf(source: string): string[] {
  const specs: string[] = [];
  for (const m of source.matchAll(/^\s*(?:import|export)\s+(type\s)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm)) if (!m[1]) specs.push(m[2]!);
  for (const m of source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) specs.push(m[1]!);
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]!);
  return specs;
}

/** A module's own strings: the parts it imports, and the keys it names (with where). */
function stringsOf(file: string, source: string): { parts: Set<string>; keys: string[]; imports: string[] } {
  const parts = new Set(CORE);
  const imports: string[] = [];
  for (const spec of importsOf(source)) {
    const target = resolveImport(file, spec);
    if (!target) continue;
    const name = target.startsWith(I18N) ? target.slice(I18N.length + 1) : '';
    if (name === 'en.ts') PARTS.forEach((p) => parts.add(p));
    else if (name.endsWith('.en.ts')) parts.add(name.slice(0, -'.en.ts'.length));
    else if (!name) imports.push(target);
  }
  const keys = new Set<string>();
  for (const m of source.matchAll(/['"`]([a-zA-Z]+(?:\.[a-zA-Z0-9]+)+)['"`]/g)) if (KEYS.has(m[1]!)) keys.add(m[1]!);
  for (const m of source.matchAll(/`([a-zA-Z]+(?:\.[a-zA-Z0-9]+)*\.)\$\{/g)) for (const key of KEYS) if (key.startsWith(m[1]!)) keys.add(key);
  return { parts, keys: [...keys], imports };
}

/** Every module an entrypoint's bundle can run (static and dynamic imports), with its strings. */
function modulesOf(entry: string): Map<string, ReturnType<typeof stringsOf>> {
  const modules = new Map<string, ReturnType<typeof stringsOf>>();
  const stack = [entry];
  while (stack.length) {
    const file = stack.pop()!;
    if (modules.has(file)) continue;
    const strings = stringsOf(file, readFileSync(file, 'utf8'));
    modules.set(file, strings);
    stack.push(...strings.imports);
  }
  return modules;
}

/** Which parts a module uses: of the keys it names, the parts they are in. */
const partsNamed = (keys: string[]) => new Set(keys.map((key) => partOf.get(key) ?? '?'));

/** Every entrypoint: the background, and the scripts of each page. */
const ENTRIES = readdirSync(join(EXTENSION, 'entrypoints'), { withFileTypes: true }).flatMap((d) => {
  if (d.isFile()) return /\.tsx?$/.test(d.name) ? [join(EXTENSION, 'entrypoints', d.name)] : [];
  const html = join(EXTENSION, 'entrypoints', d.name, 'index.html');
  if (!existsSync(html)) return [];
  return [...readFileSync(html, 'utf8').matchAll(/<script[^>]*\bsrc="\.\/([^"]+)"/g)].map((m) => join(EXTENSION, 'entrypoints', d.name, m[1]!));
});

describe('the strings each page loads', () => {
  it('finds the entrypoints', () => {
    const names = ENTRIES.map((e) => relative(EXTENSION, e));
    expect(names).toEqual(expect.arrayContaining(['entrypoints/background.ts', 'entrypoints/popup/popup-main.tsx', 'entrypoints/options/options-main.tsx', 'entrypoints/sidepanel/sidepanel-main.tsx']));
  });

  // A module's strings travel with it: whichever page or chunk runs it has imported its parts.
  it.each(ENTRIES.map((e) => [relative(EXTENSION, e), e]))('every module of %s imports the parts whose keys it names', (_name, entry) => {
    const missing: string[] = [];
    for (const [file, { parts, keys }] of modulesOf(entry)) {
      for (const key of keys) if (!parts.has(partOf.get(key) ?? '?')) missing.push(`${relative(ROOT, file)}: ${key} (${partOf.get(key)})`);
    }
    expect(missing).toEqual([]);
  });

  it('keeps the other parts out of what the popup loads up front', () => {
    // Its static graph only: the rest loads on demand.
    const modules = new Map<string, ReturnType<typeof stringsOf>>();
    const stack = [join(EXTENSION, 'entrypoints/popup/popup-main.tsx')];
    while (stack.length) {
      const file = stack.pop()!;
      if (modules.has(file)) continue;
      const source = readFileSync(file, 'utf8').replace(/\bimport\(\s*['"][^'"]+['"]\s*\)/g, '');
      const strings = stringsOf(file, source);
      modules.set(file, strings);
      stack.push(...strings.imports);
    }
    const loaded = new Set([...modules.values()].flatMap((m) => [...m.parts]));
    expect([...loaded].sort()).toEqual([...CORE].sort());
    expect(partsNamed([...modules.values()].flatMap((m) => m.keys)).has('background')).toBe(false);
  });
});
