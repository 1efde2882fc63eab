import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { ROOT } from './lib/wrangler-dev';

/** A module past this many lines holds more than one responsibility: split it by what it does. */
const MAX_LINES = 400;

/**
 * The one exception: the SHA-256 block function is unrolled by hand, 64 rounds written out, because
 * it sits on the signing hot path; unrolled it runs about 2x as fast as plain loops (measured in
 * the file's own comment and, against WebCrypto and @noble/hashes, in docs/reliability.md).
 */
const UNROLLED = /(^|\/)signing\/sha256\.ts$|(^|\/)sha256\.ts$/;

test(`no source module is over ${MAX_LINES} lines`, () => {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '--', 'shared', 'worker', 'extension', 'scripts', 'test'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => /\.(ts|tsx)$/.test(file) && !/\.test\.tsx?$/.test(file) && !UNROLLED.test(file));
  expect(files.length).toBeGreaterThan(100);
  const long = files
    .map((file) => ({ file, lines: readFileSync(`${ROOT}/${file}`, 'utf8').trimEnd().split('\n').length }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines}`);
  expect(long).toEqual([]);
});
