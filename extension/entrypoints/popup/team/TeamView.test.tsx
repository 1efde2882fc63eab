import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MODEL_IDS } from '@@/shared/catalog/testing/model-ids';
import { button, click, mount, text, unmount } from '@/components/dom-testing';
import { GALLERY_PAGE, TeamView } from '@/entrypoints/popup/team/TeamView';
import { loadDraft } from '@/lib/generate/generate-draft';
import { FakeProxy } from '@/lib/testing/fake-proxy';
import { galleryItem, ME } from '@/lib/testing/fake-team';
import { connect, resetState } from '@/lib/testing/test-setup';

const realFetch = globalThis.fetch;
let proxy: FakeProxy;

beforeEach(async () => {
  await resetState();
  await connect();
  localStorage.clear();
  proxy = new FakeProxy();
  globalThis.fetch = proxy.fetch;
});

afterEach(() => {
  unmount();
  localStorage.clear();
  globalThis.fetch = realFetch;
});

const entries = () => [...document.querySelectorAll<HTMLLIElement>('.gallery__item')];
const galleryCalls = () => proxy.calls.filter((c) => c.method === 'GET' && c.action === '/proxy/gallery');
const request = {
  model: MODEL_IDS.s2,
  content: [
    { type: 'text', text: 'Mia waves at the camera' },
    { type: 'image_url', image_url: { url: 'asset://asset-mia' }, role: 'reference_image' },
  ],
  resolution: '720p',
};

describe('Team tab: the gallery', () => {
  it('lists the gallery newest first: the kept video (metadata only, no autoplay), who made it, the model, the prompt, the cost', async () => {
    proxy.team.gallery = [
      galleryItem({ taskId: 't2', model: MODEL_IDS.s2, request, cost: 3.672 }),
      galleryItem({ taskId: 't1', keptUrl: null, member: { id: 'm00000000000000c0', name: 'Cy' } }),
    ];
    mount(<TeamView />);
    await vi.waitFor(() => expect(entries()).toHaveLength(2));
    const [first, second] = entries();
    expect(first!.textContent).toContain('Seedance 2.0');
    expect(first!.textContent).toContain('By Ben');
    expect(first!.textContent).toContain('Mia waves at the camera');
    expect(first!.textContent).toContain('3.67 CNY');
    const video = first!.querySelector('video')!;
    expect(video.getAttribute('src')).toBe('https://proxy.test/media/t2?sig=1');
    expect(video.getAttribute('preload')).toBe('metadata');
    expect(video.hasAttribute('autoplay')).toBe(false);
    expect(video.getAttribute('aria-label')).toMatch(/^Video by Ben: Seedance 2\.0/);
    expect(second!.textContent).toContain('By Cy');
    expect(second!.textContent).toContain('The video is no longer kept.');
    expect(second!.textContent).toContain('Published before its settings were kept');
  });

  it('pages with `next`: one call a page, each after the last, until there is none', async () => {
    proxy.team.gallery = Array.from({ length: GALLERY_PAGE + 3 }, (_, i) => galleryItem({ taskId: `t${100 - i}` }));
    mount(<TeamView />);
    await vi.waitFor(() => expect(entries()).toHaveLength(GALLERY_PAGE));
    expect(galleryCalls().map((c) => c.path)).toEqual([`/proxy/gallery?limit=${GALLERY_PAGE}`]);
    click(button('Show more'));
    await vi.waitFor(() => expect(entries()).toHaveLength(GALLERY_PAGE + 3));
    expect(galleryCalls()).toHaveLength(2);
    expect(new URL(galleryCalls()[1]!.path, 'https://x').searchParams.get('before')).toBe(`${GALLERY_PAGE}~t${100 - GALLERY_PAGE + 1}`);
    expect(entries().map((e) => e.getAttribute('aria-labelledby'))[GALLERY_PAGE]).toBe(`gallery-t${100 - GALLERY_PAGE}-title`);
    expect([...document.querySelectorAll('button')].map((b) => b.textContent)).not.toContain('Show more');
  });

  it('"Reuse these settings" fills the Generate form with the item\'s request and shows Generate', async () => {
    proxy.team.gallery = [galleryItem({ taskId: 't2', model: MODEL_IDS.s2, request })];
    const onReuse = vi.fn();
    mount(<TeamView onReuse={onReuse} />);
    await vi.waitFor(() => expect(entries()).toHaveLength(1));
    click(button('Reuse these settings'));
    expect(onReuse).toHaveBeenCalledTimes(1);
    expect(loadDraft()).toMatchObject({
      model: MODEL_IDS.s2,
      prompt: 'Mia waves at the camera',
      params: { resolution: '720p' },
      references: [{ source: 'library', role: 'reference_image', url: 'asset://asset-mia', assetId: 'asset-mia' }],
    });
    expect(text()).toContain('The Generate form now has these settings.');
  });

  it('removes the member\'s own item after asking (DELETE), and offers no removal of others\' items', async () => {
    proxy.team.gallery = [galleryItem({ taskId: 'mine', member: ME }), galleryItem({ taskId: 'theirs' })];
    mount(<TeamView />);
    await vi.waitFor(() => expect(entries()).toHaveLength(2));
    expect(entries()[0]!.textContent).toContain('By you');
    expect(entries()[1]!.querySelectorAll('button.danger')).toHaveLength(0);
    click(button('Remove from the gallery'));
    expect(proxy.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    click(button('Remove'));
    await vi.waitFor(() => expect(entries()).toHaveLength(1));
    expect(proxy.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/proxy/gallery/mine']);
    expect(proxy.team.gallery.map((i) => i.taskId)).toEqual(['theirs']);
    expect(text()).toContain('Removed from the gallery.');
  });

  it('says when the gallery cannot be read', async () => {
    proxy.failNext('/proxy/gallery', { kind: 'network' });
    mount(<TeamView />);
    await vi.waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toMatch(/^Could not load the gallery: /));
  });
});
