import { startSandbox, startProxy } from '/work/wt-ci/test/support/sandbox';
const t0 = Date.now();
const s = await startSandbox();
const t1 = Date.now();
const p = await startProxy(s.url);
const t2 = Date.now();
console.log('sandbox', t1 - t0, 'proxy', t2 - t1);
await p.stop(); await s.stop();
console.log('stop', Date.now() - t2);
