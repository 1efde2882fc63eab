import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseTarget, MAIN_IMAGE_MIN_AREA, type PageSurvey, surveyPage } from '@/lib/background/pointed-media';

/** The surveys the page answers: happy-dom has no layout, so `:hover`, stacking and boxes are set here. */

const box = (left: number, top: number, width: number, height: number) =>
  ({ left, top, width, height, right: left + width, bottom: top + height, x: left, y: top, toJSON: () => ({}) }) as DOMRect;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, rect = box(0, 0, 0, 0), parent: Element = document.body): HTMLElementTagNameMap[K] {
  const created = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) created.setAttribute(name, value);
  created.getBoundingClientRect = () => rect;
  parent.append(created);
  return created;
}

/** The pointer is over `deepest` (the browser's `:hover` chain, outermost first); `stack`: what elementsFromPoint answers. */
function pointAt(deepest: Element | null, stack: Element[] = []): void {
  const chain: Element[] = [];
  for (let e: Element | null = deepest; e; e = e.parentElement) chain.unshift(e);
  const original = Document.prototype.querySelectorAll;
  vi.spyOn(document, 'querySelectorAll').mockImplementation(((selector: string) => (selector === ':hover' ? chain : original.call(document, selector))) as typeof document.querySelectorAll);
  (document as unknown as { elementsFromPoint: (x: number, y: number) => Element[] }).elementsFromPoint = vi.fn(() => stack);
}

const IMAGE = 'https://cdn.example.com/fox-400.jpg';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
  document.head.replaceChildren();
});

describe('surveyPage (in the page)', () => {
  it('finds the image under the pointer', () => {
    const image = element('img', { src: IMAGE }, box(10, 10, 400, 300));
    pointAt(image);
    expect(surveyPage(8192).pointed).toEqual({ tag: 'img', src: IMAGE });
  });

  it('finds a video by its source element, and the image under an overlay drawn over it', () => {
    const video = element('video', {}, box(0, 0, 640, 360));
    element('source', { src: 'https://cdn.example.com/clip.mp4' }, undefined, video);
    pointAt(video);
    expect(surveyPage(8192).pointed).toEqual({ tag: 'video', src: 'https://cdn.example.com/clip.mp4' });

    const card = element('div', {}, box(0, 400, 300, 300));
    const image = element('img', { src: IMAGE }, box(0, 400, 300, 300), card);
    const overlay = element('div', { class: 'overlay' }, box(0, 400, 300, 300), card);
    const icon = element('span', {}, box(10, 410, 24, 24), overlay);
    pointAt(icon, [icon, overlay, image, card, document.body]);
    expect(surveyPage(8192).pointed).toEqual({ tag: 'img', src: IMAGE });
  });

  it('enters an open shadow root', () => {
    const host = element('div', {}, box(0, 0, 400, 300));
    const shadow = host.attachShadow({ mode: 'open' });
    const image = element('img', { src: IMAGE }, box(0, 0, 400, 300), shadow as unknown as Element);
    pointAt(host);
    vi.spyOn(shadow, 'querySelectorAll').mockImplementation(((selector: string) => (selector === ':hover' ? [image] : [])) as unknown as typeof shadow.querySelectorAll);
    expect(surveyPage(8192).pointed).toEqual({ tag: 'img', src: IMAGE });
  });

  it('takes nothing under the pointer when the media does not cover the hovered element (a big container)', () => {
    const container = element('div', {}, box(0, 0, 1000, 700));
    const image = element('img', { src: IMAGE }, box(300, 200, 200, 200), container);
    pointAt(container, [container, image]);
    expect(surveyPage(8192).pointed).toBeNull();
    pointAt(document.body, [image]);
    expect(surveyPage(8192).pointed).toBeNull();
    pointAt(null);
    expect(surveyPage(8192).pointed).toBeNull();
  });

  it('measures the largest image by its part in view, and reads og:image against the document', () => {
    element('img', { src: 'https://cdn.example.com/icon.png' }, box(0, 0, 32, 32));
    element('img', { src: 'https://cdn.example.com/hero.jpg' }, box(0, 568, 800, 600)); // 800 × 200 in a 768 px tall view
    element('img', { src: 'https://cdn.example.com/side.jpg' }, box(100, 100, 300, 400));
    element('img', { src: 'https://cdn.example.com/below.jpg' }, box(0, 2000, 1000, 1000));
    element('img', {}, box(0, 0, 1000, 700)); // no source
    element('meta', { property: 'og:image', content: '/share/cover.jpg' }, undefined, document.head);
    pointAt(null);
    const survey = surveyPage(8192);
    expect(survey.largest).toEqual({ src: 'https://cdn.example.com/hero.jpg', area: 800 * 200 });
    expect(survey.ogImage).toBe(new URL('/share/cover.jpg', document.baseURI).href);
    expect(survey.documentUrl).toBe(document.baseURI);
  });

  it('cuts an over-long address one past the limit, so that it is refused with its reason rather than lost', () => {
    const image = element('img', { src: `https://cdn.example.com/${'a'.repeat(200)}.png` }, box(0, 0, 400, 300));
    pointAt(image);
    expect(surveyPage(100).pointed?.src).toHaveLength(101);
  });
});

const survey = (over: Partial<PageSurvey> = {}): PageSurvey => ({ pointed: null, largest: null, ogImage: null, documentUrl: 'https://www.example.com/gallery/', ...over });

describe('chooseTarget (the main-image choice)', () => {
  it('takes the media under the pointer first, in whichever frame has it', () => {
    const top = survey({ largest: { src: 'https://cdn.example.com/hero.jpg', area: 500_000 }, ogImage: 'https://cdn.example.com/og.jpg' });
    expect(chooseTarget([{ frameId: 0, survey: { ...top, pointed: { tag: 'video', src: 'https://cdn.example.com/clip.mp4' } } }])).toEqual({
      type: 'Video',
      srcUrl: 'https://cdn.example.com/clip.mp4',
      frameId: 0,
      documentUrl: 'https://www.example.com/gallery/',
      reason: 'pointer',
    });
    const framed = survey({ pointed: { tag: 'audio', src: 'https://cdn.example.com/song.mp3' }, documentUrl: 'https://frames.example.com/embed/' });
    expect(chooseTarget([{ frameId: 0, survey: top }, { frameId: 4, survey: framed }])).toMatchObject({ type: 'Audio', frameId: 4, documentUrl: 'https://frames.example.com/embed/', reason: 'pointer' });
  });

  it('else the largest image in view of the top frame, when it is big enough', () => {
    const frames = (largestArea: number, ogImage: string | null = 'https://cdn.example.com/og.jpg') => [
      { frameId: 0, survey: survey({ largest: { src: 'https://cdn.example.com/hero.jpg', area: largestArea }, ogImage }) },
      { frameId: 2, survey: survey({ largest: { src: 'https://ads.example.com/banner.jpg', area: 900_000 } }) },
    ];
    expect(chooseTarget(frames(MAIN_IMAGE_MIN_AREA))).toMatchObject({ type: 'Image', srcUrl: 'https://cdn.example.com/hero.jpg', frameId: 0, reason: 'largest' });
    // Only icons in view: the page's og:image.
    expect(chooseTarget(frames(MAIN_IMAGE_MIN_AREA - 1))).toMatchObject({ type: 'Image', srcUrl: 'https://cdn.example.com/og.jpg', frameId: 0, reason: 'og:image' });
    expect(chooseTarget(frames(MAIN_IMAGE_MIN_AREA - 1, null))).toBeNull();
  });

  it('finds nothing in an empty page, or without the top frame’s answer', () => {
    expect(chooseTarget([{ frameId: 0, survey: survey() }])).toBeNull();
    expect(chooseTarget([{ frameId: 3, survey: survey({ ogImage: 'https://cdn.example.com/og.jpg' }) }])).toBeNull();
    expect(chooseTarget([])).toBeNull();
  });
});
