/**
 * `npm test`: the type checks and the import rules run beside vitest rather than before it (they
 * take a core for about a minute while vitest mostly waits on workerd and the browsers). vitest's
 * output streams as it comes; the checks' output is held and printed whole when each ends, so the
 * two never interleave mid-line. Fails when any of them fails; prints how long each took and
 * writes it to test-results/phases.json for `.ci/run`'s summary. Arguments go to vitest
 * (`npm test -- --project unit`).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib/wrangler-dev';

interface Phase {
  name: string;
  seconds: number;
  ok: boolean;
}

const bin = (name: string): string => join(ROOT, 'node_modules', '.bin', name);

function run(name: string, command: string, args: string[], stream: boolean): Promise<Phase> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const held: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => held.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => held.push(chunk));
    const done = (ok: boolean) => {
      const seconds = (performance.now() - started) / 1000;
      if (!stream) {
        const output = Buffer.concat(held).toString('utf8').trimEnd();
        process.stdout.write(`\n── ${name}: ${ok ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s ──\n${output ? `${output}\n` : ''}`);
      }
      resolve({ name, seconds, ok });
    };
    child.on('error', (error) => {
      held.push(Buffer.from(String(error)));
      done(false);
    });
    child.on('close', (code) => done(code === 0));
  });
}

/** The checks one after another (two tsc processes at once would take both cores from vitest). */
async function checks(): Promise<Phase[]> {
  const out: Phase[] = [];
  out.push(await run('typecheck (extension, shared, tests, scripts)', bin('tsc'), ['--noEmit', '-p', '.'], false));
  out.push(await run('typecheck (Workers)', bin('tsc'), ['--noEmit', '-p', 'worker'], false));
  out.push(await run('imports', bin('depcruise'), ['--config', '.dependency-cruiser.cjs', 'shared', 'worker', 'extension', 'scripts', 'test'], false));
  return out;
}

const started = performance.now();
const [checked, vitest] = await Promise.all([checks(), run('vitest', bin('vitest'), ['run', ...process.argv.slice(2)], true)]);
const phases = [...checked, vitest];
const total = (performance.now() - started) / 1000;

mkdirSync(join(ROOT, 'test-results'), { recursive: true });
writeFileSync(join(ROOT, 'test-results', 'phases.json'), `${JSON.stringify({ seconds: total, phases }, null, 1)}\n`);
process.stdout.write(
  `\nnpm test: ${total.toFixed(1)} s\n${phases.map((p) => `  ${p.ok ? 'ok    ' : 'FAILED'} ${p.seconds.toFixed(1).padStart(7)} s  ${p.name}`).join('\n')}\n`,
);
process.exitCode = phases.every((p) => p.ok) ? 0 : 1;
