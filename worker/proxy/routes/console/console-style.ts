/** The console's one stylesheet, served from the proxy (no CDN, no inline style: the CSP allows 'self' only). */
export const CONSOLE_CSS = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0b57d0; --accent-fg: #ffffff; --panel: #f6f8fa; --bad: #b3261e; --warn: #7a4f01; --ok: #1a7f37; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9da7b3; --line: #30363d; --accent: #7cacf8; --accent-fg: #0d1117; --panel: #161b22; --bad: #ff8a80; --warn: #f2cc60; --ok: #7ee787; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif; background: var(--bg); color: var(--fg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; } .skip:focus { left: 8px; top: 8px; background: var(--panel); padding: 6px 10px; z-index: 1; }
header { border-bottom: 1px solid var(--line); background: var(--panel); }
.bar { max-width: 1100px; margin: 0 auto; padding: 10px 16px; display: flex; flex-wrap: wrap; gap: 12px; align-items: center; }
.brand { font-weight: 700; margin-right: 8px; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 4px; margin: 0; padding: 0; }
nav a { display: inline-block; padding: 6px 10px; border-radius: 6px; text-decoration: none; color: var(--fg); }
nav a[aria-current="page"] { background: var(--accent); color: var(--accent-fg); }
.spacer { flex: 1; }
main { max-width: 1100px; margin: 0 auto; padding: 16px; }
.status { margin: 0; padding: 8px 16px; font-size: 14px; color: var(--muted); max-width: 1100px; margin: 0 auto; }
.status--bad { color: var(--bad); font-weight: 600; }
h1 { font-size: 24px; margin: 8px 0 16px; } h2 { font-size: 18px; margin: 24px 0 8px; }
table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; font-size: 14px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.table-wrap { overflow-x: auto; }
form.inline { display: inline-flex; flex-wrap: wrap; gap: 6px; align-items: end; margin: 0 4px 4px 0; }
.field { display: flex; flex-direction: column; gap: 2px; margin: 0 8px 8px 0; }
.field label { font-size: 13px; color: var(--muted); }
input, select, textarea, button { font: inherit; color: inherit; }
input, select, textarea { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; min-width: 0; }
textarea { width: 100%; min-height: 240px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
button, .button { background: var(--accent); color: var(--accent-fg); border: 0; border-radius: 6px; padding: 7px 12px; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: transparent; color: var(--fg); border: 1px solid var(--line); }
button.danger { background: var(--bad); color: #ffffff; }
.note { padding: 10px 12px; border: 1px solid var(--line); border-radius: 8px; background: var(--panel); margin: 8px 0 16px; }
.note--bad { border-color: var(--bad); } .note--ok { border-color: var(--ok); }
.muted { color: var(--muted); }
.secret { width: 100%; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.qr { width: 220px; height: 220px; background: #ffffff; padding: 8px; border-radius: 8px; }
.chart { width: 100%; height: auto; max-width: 1000px; }
.chart text { fill: var(--fg); font-size: 11px; }
.chart .axis { stroke: var(--line); }
.legend { display: flex; flex-wrap: wrap; gap: 12px; list-style: none; padding: 0; margin: 4px 0 12px; font-size: 13px; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin-right: 6px; vertical-align: -1px; }
.signin { max-width: 420px; margin: 48px auto; }
.facts { display: grid; grid-template-columns: max-content auto; gap: 4px 16px; margin: 8px 0 16px; }
.facts dt { color: var(--muted); } .facts dd { margin: 0; }
.c0 { fill: #4e79a7; background: #4e79a7; } .c1 { fill: #f28e2b; background: #f28e2b; } .c2 { fill: #59a14f; background: #59a14f; } .c3 { fill: #e15759; background: #e15759; }
.c4 { fill: #76b7b2; background: #76b7b2; } .c5 { fill: #edc948; background: #edc948; } .c6 { fill: #b07aa1; background: #b07aa1; } .c7 { fill: #9c755f; background: #9c755f; }
`;
