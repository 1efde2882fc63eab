import { LIMITS } from '../../../shared';
import type { PageState } from '../state/portrait-sessions';

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f5f6f8;color:#1d2330}
main{max-width:28rem;margin:0 auto;padding:1.25rem}
h1{font-size:1.3rem;margin:.2rem 0 1rem}
section{background:#fff;border-radius:12px;padding:1rem 1.1rem;margin-bottom:1rem;box-shadow:0 1px 3px #0001}
button{font:inherit;width:100%;padding:.8rem;border:0;border-radius:10px;background:#2456e8;color:#fff}
button:disabled{background:#9aa8cc}
label{display:block;margin:.6rem 0 .2rem;font-weight:600}
input,textarea{font:inherit;width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #c9ced8;border-radius:8px}
.hint{color:#5b6475;font-size:.85rem}.err{color:#b3261e}[hidden]{display:none}
#face{height:9rem;border-radius:50%;width:9rem;margin:.5rem auto;border:4px dashed #2456e8;display:flex;align-items:center;justify-content:center}`;

const shell = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Real-person authorization</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;

const MESSAGES: Record<Exclude<PageState['state'], 'pending'>, string> = {
  missing: 'This link does not belong to any authorization session.',
  expired: 'This QR code has expired. Ask for a new one and scan it again.',
  completed: 'Authorization is complete. You can close this page.',
  resolved: 'Authorization is complete. You can close this page.',
};

/**
 * The mobile page behind H5Link: the authorization and personal-information text, the person's
 * consent, a simulated liveness check, and the group name and description. It submits to
 * `POST /sandbox/portrait/complete`, the same call scripts may make directly.
 */
export function portraitPage(link: string, page: PageState): string {
  if (page.state !== 'pending') return shell(`<h1>Real-person authorization</h1><section id="notice" role="status"><p>${MESSAGES[page.state]}</p></section>`);
  return shell(`
<h1>Real-person authorization</h1>
<section id="rules">
  <p><strong>Authorization.</strong> You allow the requesting team to create a real-person group from your face for AI video generation. Your likeness will be used only in that team's account.</p>
  <p><strong>Personal information.</strong> A short liveness capture of your face is processed to verify that you are present and to create reference images. You can ask the team to delete the group at any time.</p>
  <p class="hint">This is the Arkbridge sandbox: no camera is used and nothing leaves this machine.</p>
  <label><input type="checkbox" id="consent" style="width:auto"> I have read the rules above and I agree.</label>
  <p class="hint">Code expires at <time id="expires" datetime="${new Date(page.expiresAt).toISOString()}">${new Date(page.expiresAt).toISOString()}</time>.</p>
  <button id="start" disabled>Start liveness check</button>
</section>
<section id="capture" hidden>
  <div id="face" aria-live="polite">Look here</div>
  <p id="step" class="hint" aria-live="polite">Blink slowly…</p>
</section>
<form id="details" hidden>
  <label for="name">Group name</label>
  <input id="name" name="GroupName" required minlength="${LIMITS.groupNameMin}" maxlength="${LIMITS.groupNameMax}">
  <label for="description">Description</label>
  <textarea id="description" name="GroupDescription" maxlength="${LIMITS.groupDescriptionMax}" rows="3"></textarea>
  <p id="error" class="err" role="alert"></p>
  <button id="submit" type="submit">Finish</button>
</form>
<section id="done" hidden><p>Authorization is complete. You can close this page.</p></section>
<script>
const link = ${JSON.stringify(link)};
const $ = (id) => document.getElementById(id);
$('consent').addEventListener('change', (e) => { $('start').disabled = !e.target.checked; });
$('start').addEventListener('click', () => {
  $('rules').hidden = true; $('capture').hidden = false;
  const steps = ['Blink slowly…', 'Turn your head left…', 'Turn your head right…', 'Done'];
  steps.forEach((text, i) => setTimeout(() => {
    $('step').textContent = text;
    if (i === steps.length - 1) { $('face').textContent = '✓'; $('capture').hidden = true; $('details').hidden = false; $('name').focus(); }
  }, 400 * i));
});
$('details').addEventListener('submit', async (e) => {
  e.preventDefault(); $('submit').disabled = true; $('error').textContent = '';
  const res = await fetch('/sandbox/portrait/complete', { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ H5Link: link, GroupName: $('name').value, GroupDescription: $('description').value }) });
  if (res.ok) { $('details').hidden = true; $('done').hidden = false; return; }
  const data = await res.json().catch(() => ({}));
  $('error').textContent = data.message || 'Something went wrong (HTTP ' + res.status + ').';
  $('submit').disabled = false;
});
</script>`);
}
