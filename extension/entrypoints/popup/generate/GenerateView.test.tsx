import { options as preactOptions } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { MODELS } from '@@/shared';
import { MODEL_IDS } from '@@/shared/catalog/testing/model-ids';
import { button, byLabel, click, description, mount, select, text, type, unmount } from '@/components/dom-testing';
import { GenerateView } from '@/entrypoints/popup/generate/GenerateView';
import { usage } from '@/lib/budget/testing/usage-fixture';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { db } from '@/lib/storage/database';
import { settingsStore } from '@/lib/storage/settings-store';
import { resumeSubmissions } from '@/lib/tasks/task-submit';
import { VideoFakeProxy } from '@/lib/tasks/testing/fake-video';
import { PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';
import { assetRecord, connect, resetState } from '@/lib/testing/test-setup';

const ids = MODEL_IDS;

const realFetch = globalThis.fetch;
let proxy: VideoFakeProxy;
let messages: unknown[];
let submitted: ReturnType<typeof vi.fn<(localId: string) => void>>;

beforeEach(async () => {
  await resetState();
  localStorage.clear();
  await connect();
  proxy = new VideoFakeProxy();
  globalThis.fetch = proxy.fetch;
  messages = [];
  fakeBrowser.runtime.onMessage.addListener((message) => void messages.push(message));
  submitted = vi.fn<(localId: string) => void>();
});

afterEach(() => {
  unmount();
  globalThis.fetch = realFetch;
});

async function open() {
  mount(<GenerateView onSubmitted={submitted} />);
  await vi.waitFor(() => byLabel<HTMLSelectElement>('Model'));
}

const labels = () => [...document.querySelectorAll('label')].map((l) => l.textContent?.trim());
const options = (control: HTMLSelectElement) => [...control.options].map((o) => o.textContent);
const submit = () => button('Generate video');

/** Opens the view, chooses Seedance 2.0, writes a prompt and opens the library picker for a reference image. */
async function openCatPicker() {
  await open();
  select(byLabel<HTMLSelectElement>('Model'), ids.s2);
  type(byLabel('Prompt'), 'A cat');
  select(byLabel<HTMLSelectElement>('Add a reference as'), 'reference_image');
  click(button('Add from library'));
  await vi.waitFor(() => button('Add Cat photo'));
}

/** …and adds "Cat photo" from the library as reference image 1. */
async function pickCatForSeedance2() {
  await openCatPicker();
  click(button('Add Cat photo'));
}

/** The text of the first reference row. */
const row = () => document.querySelector('[data-ref="Reference image 1"]')?.textContent ?? '';

function addUrl(role: string, url: string) {
  select(byLabel<HTMLSelectElement>('Add a reference as'), role);
  type(byLabel('Reference URL'), url);
  click(button('Add URL'));
}

describe('Generate: models and parameters', () => {
  it('offers the models of /v1/models that the catalog knows, by label', async () => {
    await open();
    expect(options(byLabel<HTMLSelectElement>('Model'))).toEqual(MODELS.map((m) => m.label));
    expect(text()).not.toContain('chat');
  });

  it('shows only the parameters the chosen model supports, with its allowed values', async () => {
    await open();
    select(byLabel<HTMLSelectElement>('Model'), ids.s2);
    expect(labels()).toEqual(expect.arrayContaining(['Resolution', 'Aspect ratio', 'Duration (s)', 'Seed', 'Generate audio', 'Return the last frame', 'Watermark', 'Service tier']));
    expect(labels()).not.toContain('Frames');
    expect(labels()).not.toContain('Fixed camera');
    expect(options(byLabel<HTMLSelectElement>('Resolution'))).toEqual(['Default', '480p', '720p', '1080p']);
    expect(byLabel('Generate audio').checked).toBe(true);
    expect(byLabel('Duration (s)')).toMatchObject({ min: '4', max: '15' });

    select(byLabel<HTMLSelectElement>('Model'), ids.proFast);
    expect(labels()).toEqual(expect.arrayContaining(['Frames', 'Fixed camera']));
    expect(labels()).not.toContain('Generate audio');
    expect(byLabel('Frames')).toMatchObject({ min: '29', max: '289', step: '4' });
    expect(options(byLabel<HTMLSelectElement>('Add a reference as'))).toEqual(['First frame']);

    select(byLabel<HTMLSelectElement>('Model'), ids.t2v);
    expect(text()).toContain('takes text only: no references');
    expect(() => byLabel('Reference URL')).toThrow();
  });

  it('flags a parameter value next to its control', async () => {
    await open();
    select(byLabel<HTMLSelectElement>('Model'), ids.pro);
    type(byLabel('Prompt'), 'A cat');
    type(byLabel('Frames'), '30');
    expect(description(byLabel('Frames'))).toContain('must be of the form 25+4n');
    expect(submit().disabled).toBe(true);
    type(byLabel('Frames'), '33');
    expect(submit().disabled).toBe(false);
  });
});

describe('Generate: references and rules before submit', () => {
  it('keeps submit disabled while any rule is broken, naming the reference', async () => {
    await open();
    select(byLabel<HTMLSelectElement>('Model'), ids.pro);
    expect(submit().disabled).toBe(true);
    expect(text()).toContain('Write a prompt to generate.');
    type(byLabel('Prompt'), 'A cat');
    expect(submit().disabled).toBe(false);

    addUrl('last_frame', 'https://cdn.example.com/end.png');
    const row = document.querySelector('[data-ref="Last frame"]')!;
    expect(row.textContent).toContain('a last_frame needs a first_frame');
    expect(submit().disabled).toBe(true);
    expect(text()).toContain('1 problem to fix above');

    addUrl('first_frame', 'https://cdn.example.com/start.png');
    expect(submit().disabled).toBe(false);
  });

  it('refuses a pasted address that is not https', async () => {
    await open();
    select(byLabel<HTMLSelectElement>('Model'), ids.pro);
    addUrl('first_frame', 'http://cdn.example.com/a.png');
    expect(description(byLabel('Reference URL'))).toContain('must be an https:// URL');
    expect(document.querySelectorAll('.gen-ref')).toHaveLength(0);
  });

  it('switching model keeps the prompt and the references it takes, drops the rest and says so', async () => {
    await open();
    select(byLabel<HTMLSelectElement>('Model'), ids.s2);
    type(byLabel('Prompt'), 'A cat');
    addUrl('reference_image', 'https://cdn.example.com/cat.png');
    addUrl('reference_video', 'https://cdn.example.com/run.mp4');
    click(byLabel('Generate audio'));

    select(byLabel<HTMLSelectElement>('Model'), ids.pro);
    expect(text()).toContain('Switched to Seedance 1.0 Pro. Removed what it does not take:');
    expect(text()).toContain('Removed “Generate audio”: Seedance 1.0 Pro does not support it');
    expect(text()).toContain('Removed Reference image 1: Seedance 1.0 Pro takes no reference images');
    expect(text()).toContain('Removed Reference video 1: Seedance 1.0 Pro takes no reference videos');
    expect(byLabel<HTMLTextAreaElement>('Prompt').value).toBe('A cat');
    expect(document.querySelectorAll('.gen-ref')).toHaveLength(0);

    addUrl('first_frame', 'https://cdn.example.com/start.png');
    select(byLabel<HTMLSelectElement>('Model'), ids.s2);
    expect(document.querySelector('[data-ref="First frame"]')).not.toBeNull();
  });

  it('the library lists only Active assets of the role’s kind, and only for models that take them', async () => {
    const database = await db();
    await database.put('assets', assetRecord({ localId: 'cat', name: 'Cat photo', assetId: 'asset-cat', status: 'Active', type: 'Image' }));
    await database.put('assets', assetRecord({ localId: 'dog', name: 'Dog photo', assetId: 'asset-dog', status: 'Processing', type: 'Image' }));
    await database.put('assets', assetRecord({ localId: 'run', name: 'Running clip', assetId: 'asset-run', status: 'Active', type: 'Video' }));
    proxy.seedAsset({ Id: 'asset-cat', GroupId: 'g1', Name: 'Cat photo', Status: 'Active' });
    await openCatPicker();
    expect(text()).not.toContain('Dog photo');
    expect(text()).not.toContain('Running clip');
    click(button('Add Cat photo'));
    expect(document.querySelector('[data-ref="Reference image 1"]')?.textContent).toContain('Cat photo');

    click(submit());
    await vi.waitFor(() => expect(submitted).toHaveBeenCalled());
    expect(proxy.callsOf('createVideo')[0]!.body.content[1]).toEqual({ type: 'image_url', image_url: { url: 'asset://asset-cat' }, role: 'reference_image' });

    select(byLabel<HTMLSelectElement>('Model'), ids.pro);
    expect(text()).toContain('Seedance 1.0 Pro does not take library assets');
    expect(() => button('Add from library')).toThrow();
  });

  it('a picked asset not yet ready for the model blocks submit until it is, checked with GetAsset for that asset only', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const database = await db();
      await database.put('assets', assetRecord({ localId: 'cat', name: 'Cat photo', assetId: 'asset-cat', status: 'Active', type: 'Image' }));
      await database.put('assets', assetRecord({ localId: 'owl', name: 'Owl photo', assetId: 'asset-owl', status: 'Active', type: 'Image' }));
      const cat = proxy.seedAsset({ Id: 'asset-cat', GroupId: 'g1', Name: 'Cat photo', Status: 'Active' }) as { ModelReadiness?: unknown };
      cat.ModelReadiness = [{ Models: [ids.s2], Status: 'Preparing' }];
      await pickCatForSeedance2();
      await vi.waitFor(() => expect(row()).toContain('Not ready for Seedance 2.0 yet (Preparing)'));
      expect(submit().disabled).toBe(true);
      // Only the picked asset is asked about, never every asset the picker lists.
      expect(proxy.callsOf('GetAsset').map((c) => c.body.Id)).toEqual(['asset-cat']);

      cat.ModelReadiness = [{ Models: [ids.s2], Status: 'Active' }];
      await act(async () => void (await vi.advanceTimersByTimeAsync(5_000)));
      await vi.waitFor(() => expect(row()).not.toContain('Not ready'));
      expect(submit().disabled).toBe(false);
      expect(proxy.callsOf('GetAsset')).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a picked asset the library no longer has is named at its row', async () => {
    const database = await db();
    await database.put('assets', assetRecord({ localId: 'cat', name: 'Cat photo', assetId: 'asset-cat', status: 'Active', type: 'Image' }));
    await pickCatForSeedance2();
    await vi.waitFor(() => expect(row()).toContain('no longer in your library'));
    expect(submit().disabled).toBe(true);
  });

  it('reads a local image as a data URI for models that take them', async () => {
    await open();
    select(byLabel<HTMLSelectElement>('Model'), ids.pro);
    const input = byLabel('Image file');
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'start.png', { type: 'image/png' });
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    await act(async () => void input.dispatchEvent(new Event('change', { bubbles: true })));
    await vi.waitFor(() => expect(document.querySelector('[data-ref="First frame"]')?.textContent).toContain('start.png'));
    select(byLabel<HTMLSelectElement>('Model'), ids.t2v);
    expect(text()).toContain('Removed First frame');
  });
});

describe('Generate: settings that step aside', () => {
  it('keeps duration up front and the rest in a closed "More settings" whose caption says what is set', async () => {
    await open();
    select(byLabel<HTMLSelectElement>('Model'), ids.s2);
    const more = document.querySelector<HTMLDetailsElement>('details[data-testid="more-settings"]')!;
    expect(more.open, 'closed by default').toBe(false);
    expect(more.querySelector('summary')!.textContent).toBe('More settings model defaults');
    expect(more.contains(byLabel('Duration (s)')), 'duration up front').toBe(false);
    for (const label of ['Resolution', 'Aspect ratio', 'Seed', 'Generate audio', 'Watermark', 'Service tier']) expect(more.contains(byLabel(label)), label).toBe(true);

    select(byLabel<HTMLSelectElement>('Resolution'), '1080p');
    type(byLabel('Seed'), '42');
    expect(more.querySelector('summary')!.textContent).toBe('More settings 1080p · seed 42');
    expect(description(byLabel('Resolution'))).toContain('Costs more and takes longer than 720p.');
    expect(more.open, 'still closed: editing never opens it').toBe(false);
  });
});

describe('Generate: submit', () => {
  it('records the task, sends it with its key, wakes the background and hands over to Tasks', async () => {
    await open();
    select(byLabel<HTMLSelectElement>('Model'), ids.s2);
    type(byLabel('Prompt'), 'A cat surfing');
    select(byLabel<HTMLSelectElement>('Resolution'), '720p');
    click(submit());
    await vi.waitFor(() => expect(submitted).toHaveBeenCalledTimes(1));

    const [record] = await (await db()).getAll('tasks');
    expect(submitted).toHaveBeenCalledWith(record!.localId);
    expect(record).toMatchObject({ status: 'queued', taskId: 'cgt-1', model: ids.s2 });
    const [call] = proxy.callsOf('createVideo');
    expect(call!.idempotencyKey).toBe(record!.idempotencyKey);
    expect(call!.body).toEqual({ model: ids.s2, content: [{ type: 'text', text: 'A cat surfing' }], resolution: '720p' });
    expect(messages).toContainEqual({ type: 'arkbridge:sync' });
  });

  it('a model chosen before the model list has been applied is kept, and so is the prompt', async () => {
    // The list arrives outside any event, and its effect waits for the next frame: held here, so
    // that the member's choice comes first, as it can on a busy machine. The effect then runs at the
    // member's change and must apply to the form as it is now, not as that earlier render saw it.
    const held: (() => void)[] = [];
    const previous = preactOptions.requestAnimationFrame;
    preactOptions.requestAnimationFrame = (callback) => void held.push(callback);
    try {
      await open();
      select(byLabel<HTMLSelectElement>('Model'), ids.s2);
      type(byLabel('Prompt'), 'A cat surfing');
    } finally {
      preactOptions.requestAnimationFrame = previous;
    }
    act(() => held.splice(0).forEach((callback) => callback()));
    expect(byLabel<HTMLSelectElement>('Model').value).toBe(ids.s2);
    expect(byLabel<HTMLTextAreaElement>('Prompt').value).toBe('A cat surfing');
    click(submit());
    await vi.waitFor(() => expect(submitted).toHaveBeenCalledTimes(1));
    expect(proxy.callsOf('createVideo')[0]!.body).toMatchObject({ model: ids.s2, content: [{ type: 'text', text: 'A cat surfing' }] });
  });

  it('a refusal stays on the form, next to the element it names', async () => {
    await open();
    select(byLabel<HTMLSelectElement>('Model'), ids.s2);
    type(byLabel('Prompt'), 'A cat');
    addUrl('reference_image', 'https://cdn.example.com/cat.png');
    proxy.failNext('createVideo', { kind: 'video-error', status: 400, code: 'invalid_parameter', message: 'content[1].image_url: could not be downloaded (HTTP 403)', param: 'content[1].image_url' });
    click(submit());
    await vi.waitFor(() => expect(document.querySelector('[data-ref="Reference image 1"]')?.textContent).toContain('The proxy refused the request: Reference image 1: could not be downloaded (HTTP 403)'));
    expect(submitted).not.toHaveBeenCalled();
    expect((await (await db()).getAll('tasks'))[0]).toMatchObject({ status: 'failed' });
  });

  it('keeps the draft across openings', async () => {
    await open();
    select(byLabel<HTMLSelectElement>('Model'), ids.pro);
    type(byLabel('Prompt'), 'Unfinished idea');
    unmount();
    await open();
    expect(byLabel<HTMLSelectElement>('Model').value).toBe(ids.pro);
    expect(byLabel<HTMLTextAreaElement>('Prompt').value).toBe('Unfinished idea');
  });
});

describe('Generate: budgets', () => {
  const BUDGET_MESSAGE =
    'Your budget cannot cover this task: 1.20 CNY left, and it costs 3.67 CNY. Nothing was created, and submitting again will not help until the budget is raised (a monthly budget starts again on the 1st, UTC): ask your team’s admin.';

  async function fillAndSubmit() {
    await open();
    select(byLabel<HTMLSelectElement>('Model'), ids.s2);
    type(byLabel('Prompt'), 'A cat surfing');
    select(byLabel<HTMLSelectElement>('Resolution'), '720p');
    click(submit());
  }

  /** Later passes (the popup's, the background's) never send a refused create again. */
  async function neverSentAgain() {
    const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch);
    expect(await resumeSubmissions(client, () => Date.now() + 3600_000)).toEqual({ sent: 0, accepted: 0 });
    expect(proxy.callsOf('createVideo')).toHaveLength(1);
  }

  it('a 402 says what is left, what the task costs and to ask the admin; the form stays filled, nothing is sent again', async () => {
    proxy.failNext('createVideo', {
      kind: 'video-error',
      status: 402,
      type: 'insufficient_quota',
      code: 'budget_exceeded',
      message: 'This task costs 3.672 CNY; 1.2 CNY of your monthly budget is left.',
      extra: { scope: 'member', remaining: 1.2, cost: 3.672, currency: 'CNY' },
    });
    await fillAndSubmit();
    await vi.waitFor(() => expect(document.getElementById('gen-budget')?.textContent).toBe(BUDGET_MESSAGE));
    expect(document.getElementById('gen-budget')!.getAttribute('role')).toBe('alert');
    expect(submitted).not.toHaveBeenCalled();
    expect(byLabel<HTMLTextAreaElement>('Prompt').value).toBe('A cat surfing');
    expect(byLabel<HTMLSelectElement>('Resolution').value).toBe('720p');
    expect(submit().disabled).toBe(false);
    expect((await (await db()).getAll('tasks'))[0]).toMatchObject({ status: 'failed', error: { code: 'budget_exceeded' } });
    await neverSentAgain();
  });

  it('a 429 for too many running tasks says to wait for one to finish, and is not retried like a busy service', async () => {
    proxy.failNext('createVideo', {
      kind: 'video-error',
      status: 429,
      type: 'rate_limit_error',
      code: 'too_many_running_tasks',
      message: '3 of your tasks are running; the limit is 3.',
      extra: { running: 3, maxRunning: 3 },
    });
    await fillAndSubmit();
    await vi.waitFor(() =>
      expect(document.getElementById('gen-budget')?.textContent).toBe(
        'You already have 3 of 3 tasks running, as many as allowed. Nothing was created: wait for a running task to finish, then submit again.',
      ),
    );
    expect(byLabel<HTMLTextAreaElement>('Prompt').value).toBe('A cat surfing');
    expect(submitted).not.toHaveBeenCalled();
    expect((await (await db()).getAll('tasks'))[0]).toMatchObject({ status: 'failed', error: { code: 'too_many_running_tasks' } });
    await neverSentAgain();
  });

  it('reads the budget again after a create', async () => {
    proxy.usage = usage({ remaining: 80.156, running: 2 });
    await fillAndSubmit();
    await vi.waitFor(() => expect(submitted).toHaveBeenCalledTimes(1));
    await vi.waitFor(async () => expect((await settingsStore.get('budget.usage'))?.usage).toMatchObject({ remaining: 80.156, running: 2 }));
    expect(proxy.actions().filter((a) => a === '/proxy/usage')).toHaveLength(1);
  });
});
