import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { button, byLabel, click, mount, text, unmount } from '@/components/dom-testing';
import { PortraitView } from '@/entrypoints/popup/portrait/PortraitView';
import { setLocale } from '@/lib/i18n/translate';
import { POLL_MS } from '@/lib/portrait/portrait-flow';
import { RULES_VERSION } from '@/lib/portrait/portrait-rules';
import { readSession } from '@/lib/portrait/portrait-store';
import { qrDataUrl } from '@/lib/portrait/qr';
import { FakePortraitProxy, ManualClock } from '@/lib/portrait/testing/fake-portrait';
import { db } from '@/lib/storage/database';
import { connect, resetState } from '@/lib/testing/test-setup';

const realFetch = globalThis.fetch;
let clock: ManualClock;
let proxy: FakePortraitProxy;

beforeEach(async () => {
  await resetState();
  await connect();
  clock = new ManualClock();
  proxy = new FakePortraitProxy(clock.now);
  // The view's own client (from the stored connection) talks to the fake proxy.
  globalThis.fetch = proxy.fetch as typeof fetch;
});

afterEach(() => {
  unmount();
  globalThis.fetch = realFetch;
  setLocale('en');
});

const START = 'Record consent and show QR code';
const AGREE = 'I have shown these rules to the person and they agree';

async function open() {
  mount(<PortraitView deps={{ now: clock.now, sleep: clock.sleep }} tickMs={10} />);
  await vi.waitFor(() => expect(text()).toContain('Authorization and personal-information rules'));
}

const qr = () => document.querySelector<HTMLImageElement>('img[alt="QR code for the phone authorization page"]');

async function agreeAndShow({ continuous = false } = {}) {
  click(byLabel(AGREE));
  if (continuous) click(byLabel('Allow several captures in one flow'));
  click(button(START));
  await vi.waitFor(() => expect(qr()).not.toBeNull());
  await vi.waitFor(() => expect(clock.sleepers).toHaveLength(1));
}

describe('Real person tab: the consent gate', () => {
  it('shows the rules first; the button stays disabled until the checkbox is ticked, and nothing is called', async () => {
    await open();
    for (const part of ['What is captured', 'How it is used', 'scans the QR code with their own phone', 'belongs to your member account', 'delete the group', `Rules version ${RULES_VERSION}`]) {
      expect(text()).toContain(part);
    }
    const start = button(START);
    expect(start.disabled).toBe(true);
    click(start);
    expect(byLabel('Allow several captures in one flow').checked).toBe(false);
    click(byLabel(AGREE));
    expect(button(START).disabled).toBe(false);
    click(byLabel(AGREE));
    expect(button(START).disabled).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(proxy.calls).toHaveLength(0);
    expect(qr()).toBeNull();
  });

  it('records the consent, and only then creates the session and shows its QR code', async () => {
    await open();
    await agreeAndShow();
    expect(proxy.actions()).toEqual(['/proxy/consents', 'CreatePortraitSession']);
    expect(proxy.calls[0]!.body).toEqual({ scope: 'portrait', rulesVersion: RULES_VERSION });
    expect(proxy.calls[1]!.body).toEqual({ ContinuousCreate: false });
  });

  it('a failed consent call shows the error, creates nothing and shows no QR code', async () => {
    proxy.failNext('/proxy/consents', { kind: 'status', status: 503, code: 'unavailable', message: 'consent store unavailable' });
    await open();
    click(byLabel(AGREE));
    click(button(START));
    await vi.waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toMatch(/consent could not be recorded.*consent store unavailable/));
    await new Promise((r) => setTimeout(r, 20));
    expect(proxy.actions()).toEqual(['/proxy/consents']);
    expect(qr()).toBeNull();
    expect(text()).not.toContain('Waiting for the person');
    // The member can try again: the box stays ticked.
    expect(button(START).disabled).toBe(false);
    click(button(START));
    await vi.waitFor(() => expect(qr()).not.toBeNull());
    expect(proxy.actions()).toEqual(['/proxy/consents', '/proxy/consents', 'CreatePortraitSession']);
  });

  it('passes the "several captures" option as ContinuousCreate', async () => {
    await open();
    await agreeAndShow({ continuous: true });
    expect(proxy.callsOf('CreatePortraitSession')[0]!.body).toEqual({ ContinuousCreate: true });
  });

  it('shows when the consent was last recorded', async () => {
    await open();
    await agreeAndShow();
    click(button('Cancel'));
    await vi.waitFor(() => expect(text()).toMatch(new RegExp(`Last consent recorded .+ \\(rules ${RULES_VERSION}\\)`)));
    // A new flow: the box must be ticked again.
    expect(button(START).disabled).toBe(true);
  });
});

describe('Real person tab: the QR code', () => {
  it('renders the H5Link as a QR data URL, with the link, a countdown and the waiting status', async () => {
    await open();
    await agreeAndShow();
    const link = proxy.latest().h5;
    expect(qr()!.src).toBe(await qrDataUrl(link));
    expect(byLabel('Phone link').value).toBe(link);
    expect(document.querySelector('[role="timer"]')!.textContent).toBe('Code expires in 05:00');
    expect(document.querySelector('[aria-live="polite"]')!.textContent).toBe('The code expires in 5 min.');
    expect(text()).toContain('Waiting for the person to finish on their phone…');

    clock.advance(POLL_MS);
    await vi.waitFor(() => expect(proxy.callsOf('ResolvePartnerToken')).toHaveLength(1));
    await vi.waitFor(() => expect(document.querySelector('[role="timer"]')!.textContent).toBe('Code expires in 04:58'));
  });

  it('keeps polling while the person is not done', async () => {
    await open();
    await agreeAndShow();
    for (let i = 1; i <= 3; i++) {
      clock.advance(POLL_MS);
      await vi.waitFor(() => expect(proxy.callsOf('ResolvePartnerToken')).toHaveLength(i));
      await vi.waitFor(() => expect(clock.sleepers).toHaveLength(1));
    }
    expect(text()).toContain('Waiting for the person to finish on their phone…');
    expect(proxy.callsOf('CreatePortraitSession')).toHaveLength(1);
  });

  it('on expiry shows a fresh code for a new session automatically', async () => {
    await open();
    await agreeAndShow();
    const first = qr()!.src;
    clock.advance(300_000);
    await vi.waitFor(() => expect(proxy.callsOf('CreatePortraitSession')).toHaveLength(2));
    const second = await qrDataUrl('https://sandbox.test/h5/portrait/h5-2');
    await vi.waitFor(() => expect(qr()?.src).toBe(second));
    expect(qr()!.src).not.toBe(first);
    expect(byLabel('Phone link').value).toBe('https://sandbox.test/h5/portrait/h5-2');
    expect(text()).toContain('The previous code expired, so this is a new one (2 of 4).');
    expect(document.querySelector('[role="timer"]')!.textContent).toBe('Code expires in 05:00');
    expect(proxy.callsOf('/proxy/consents')).toHaveLength(1);
  });

  it('after the automatic fresh codes, offers a New code button', async () => {
    await open();
    await agreeAndShow();
    for (let i = 2; i <= 4; i++) {
      clock.advance(300_000);
      await vi.waitFor(() => expect(byLabel('Phone link').value).toBe(`https://sandbox.test/h5/portrait/h5-${i}`));
      await vi.waitFor(() => expect(clock.sleepers).toHaveLength(1));
    }
    clock.advance(300_000);
    await vi.waitFor(() => expect(text()).toContain('The QR code expired before the person finished on their phone.'));
    expect(qr()).toBeNull();
    click(button('New code'));
    await vi.waitFor(() => expect(byLabel('Phone link').value).toBe('https://sandbox.test/h5/portrait/h5-5'));
  });

  it('copies the link', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await open();
    await agreeAndShow();
    click(button('Copy link'));
    await vi.waitFor(() => expect(text()).toContain('Link copied.'));
    expect(writeText).toHaveBeenCalledWith(proxy.latest().h5);
  });

  it('Cancel goes back to the rules and stops polling', async () => {
    await open();
    await agreeAndShow();
    click(button('Cancel'));
    await vi.waitFor(() => expect(button(START)).toBeTruthy());
    clock.advance(POLL_MS);
    await new Promise((r) => setTimeout(r, 20));
    expect(proxy.callsOf('ResolvePartnerToken')).toHaveLength(0);
    expect(await readSession()).toBeNull();
  });

  it('a reopened popup shows the same code again', async () => {
    await open();
    await agreeAndShow();
    const link = byLabel('Phone link').value;
    unmount();
    mount(<PortraitView deps={{ now: clock.now, sleep: clock.sleep }} tickMs={10} />);
    await vi.waitFor(() => expect(byLabel('Phone link').value).toBe(link));
    expect(text()).not.toContain('Authorization and personal-information rules');
    expect(proxy.callsOf('CreatePortraitSession')).toHaveLength(1);
  });
});

describe('Real person tab: completion', () => {
  it('shows the new group and its assets with statuses, stored in IndexedDB as LivenessFace', async () => {
    proxy.captureStatus = 'Processing';
    await open();
    await agreeAndShow({ continuous: true });
    proxy.complete(proxy.latest().h5, 'Ada Lovelace', 'Studio portrait, May');
    clock.advance(POLL_MS);
    // The message comes first, the group and its assets once read: wait for the whole view.
    await vi.waitFor(() => {
      expect(text()).toContain('The real-person group was created.');
      expect(text()).toContain('Ada Lovelace');
      expect(text()).toContain('Studio portrait, May');
      const rows = [...document.querySelectorAll('.portrait-assets li')].map((li) => li.textContent);
      expect(rows).toEqual(['Ada Lovelace capture 1Processing', 'Ada Lovelace capture 2Processing']);
    });

    const database = await db();
    const [group] = await database.getAll('groups');
    expect(group).toMatchObject({ name: 'Ada Lovelace', description: 'Studio portrait, May', type: 'LivenessFace', usedAt: clock.now() });
    expect(await database.getAllFromIndex('assets', 'byGroup', group!.id)).toHaveLength(2);
    expect(document.activeElement?.tagName).toBe('H2');

    click(button('Done'));
    await vi.waitFor(() => expect(button(START).disabled).toBe(true));
  });

  it('follows status changes of the stored assets', async () => {
    proxy.captureStatus = 'Processing';
    await open();
    await agreeAndShow();
    proxy.complete(proxy.latest().h5, 'Grace');
    clock.advance(POLL_MS);
    await vi.waitFor(() => expect(text()).toContain('Grace capture 1'));
    const database = await db();
    const [asset] = await database.getAll('assets');
    await database.put('assets', { ...asset!, status: 'Active' });
    // As the background announces its writes on the BroadcastChannel.
    const channel = new BroadcastChannel('arkbridge-db');
    channel.postMessage(['assets']);
    channel.close();
    await vi.waitFor(() => expect(document.querySelector('.portrait-assets li')!.textContent).toBe('Grace capture 1Active'));
  });

  it('in Chinese', async () => {
    await setLocale('zh-CN');
    mount(<PortraitView deps={{ now: clock.now, sleep: clock.sleep }} tickMs={10} />);
    await vi.waitFor(() => expect(text()).toContain('真人授权与个人信息规则'));
    expect(button('记录同意并显示二维码').disabled).toBe(true);
  });
});
