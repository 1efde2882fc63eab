/**
 * What the studio's end-to-end tests (Chromium and Firefox) share: moving the sandbox's clock so
 * that videos finish at once, the team's price for the studio's model, reading an exported MP4 with
 * mediabunny in Node, and the functions evaluated in the studio page (passed whole to `evaluate`,
 * so each refers to nothing outside itself).
 */
import { ALL_FORMATS, BufferSource, Input } from 'mediabunny';
import { TEST_PROXY_SECRETS } from '../../support/sandbox';

/** The studio's model: it declares `return_last_frame`, so its shots can be chained. */
export const STUDIO_MODEL = 'doubao-seedance-1-5-pro-251215';
/** The team's price for it, per second (a 5 s task costs up to 1.85 CNY). */
export const PRICE_PER_SECOND = 0.37;
/** The studio's first paint, gzip: the shell (tabs, connection) before any view's chunk. */
export const STUDIO_FIRST_PAINT_BUDGET_GZIP = 80 * 1024;
/** The sandbox's videos run at 15 frames a second. */
export const FRAME_SECONDS = 1 / 15;

/** Sets the team's price for the studio's model, so that a quote has a cost. */
export async function priceStudioModel(proxyUrl: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${proxyUrl}/admin/prices`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${TEST_PROXY_SECRETS.ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ currency: 'CNY', models: { [STUDIO_MODEL]: { '*': PRICE_PER_SECOND } } }),
    });
    if (res.status === 200) return;
    // `wrangler dev` answers 503 when its worker restarted mid-request (and retries only GETs): the PUT is sent again.
    if (res.status !== 503 || attempt === 3) throw new Error(`PUT /admin/prices: HTTP ${res.status} ${await res.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Moves the sandbox's clock forward: running tasks finish without the test waiting for them. */
export async function advanceSandbox(sandboxUrl: string, seconds = 15): Promise<void> {
  const res = await fetch(`${sandboxUrl}/sandbox/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advanceSeconds: seconds }) });
  if (res.status !== 200) throw new Error(`POST /sandbox/clock: HTTP ${res.status}`);
}

/** Stops the sandbox's clock (`true`) or lets it run on (`false`): no task moves meanwhile, however loaded the machine. */
export async function freezeSandbox(sandboxUrl: string, frozen: boolean): Promise<void> {
  const res = await fetch(`${sandboxUrl}/sandbox/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advanceSeconds: 0, freeze: frozen }) });
  if (res.status !== 200) throw new Error(`POST /sandbox/clock: HTTP ${res.status}`);
}

/** Video creates the sandbox received so far. */
export async function sandboxCreates(sandboxUrl: string): Promise<number> {
  const stats = (await (await fetch(`${sandboxUrl}/sandbox/stats`)).json()) as Record<string, { total: number }>;
  return stats['v1-create']?.total ?? 0;
}

/**
 * Polls `read` until `done`, moving the sandbox clock forward between reads (the proxy and the
 * studio still follow the tasks at their own pace). Answers the last value; never throws on time.
 */
export async function untilDone<T>(sandboxUrl: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await advanceSandbox(sandboxUrl);
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

/** The video track's length in seconds, and its frame size, read with mediabunny. */
export async function mp4Facts(bytes: Uint8Array): Promise<{ duration: number; width: number; height: number; codec: string | null }> {
  const input = new Input({ source: new BufferSource(bytes), formats: ALL_FORMATS });
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track) throw new Error('no video track');
    return { duration: await track.computeDuration(), width: track.displayWidth, height: track.displayHeight, codec: track.codec };
  } finally {
    input.dispose();
  }
}

/** Downloads a URL's bytes (a kept clip, a last frame), failing on anything but 200. */
export async function bytesOf(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

export const isPng = (bytes: Uint8Array): boolean => bytes.length > 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;

// --- Evaluated in the studio page. ---

/**
 * Keeps every Blob the page turns into an address from now on (`window.__studioBlobs`): the
 * export's MP4 is one, whichever way the browser then downloads it.
 */
export function keepBlobsInPage(): void {
  const scope = globalThis as unknown as { __studioBlobs?: Blob[] };
  if (scope.__studioBlobs) return;
  const blobs: Blob[] = (scope.__studioBlobs = []);
  const original = URL.createObjectURL.bind(URL);
  URL.createObjectURL = (object: Blob | MediaSource) => {
    if (object instanceof Blob) blobs.push(object);
    return original(object);
  };
}

/** The last MP4 Blob kept (keepBlobsInPage), as base64 ('' when none). */
export async function lastMp4InPage(): Promise<string> {
  const blobs = (globalThis as unknown as { __studioBlobs?: Blob[] }).__studioBlobs ?? [];
  const blob = [...blobs].reverse().find((b) => b.type === 'video/mp4');
  if (!blob) return '';
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * Plays the last exported MP4 in a `<video>` of the page, muted: answers what the browser decoded
 * (its size and length, and how far it played), or the media error.
 */
export async function playLastMp4InPage(): Promise<{ width: number; height: number; duration: number; played: number; error: string | null }> {
  const blobs = (globalThis as unknown as { __studioBlobs?: Blob[] }).__studioBlobs ?? [];
  const blob = [...blobs].reverse().find((b) => b.type === 'video/mp4');
  if (!blob) return { width: 0, height: 0, duration: 0, played: 0, error: 'no exported MP4' };
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.preload = 'auto';
  video.setAttribute('aria-label', 'Exported storyboard (test)');
  video.style.cssText = 'position:fixed;right:0;bottom:0;width:160px;height:90px';
  document.body.append(video);
  const url = URL.createObjectURL(blob);
  try {
    const loaded = new Promise<string | null>((resolve) => {
      video.addEventListener('loadeddata', () => resolve(null), { once: true });
      video.addEventListener('error', () => resolve(`media error ${video.error?.code}: ${video.error?.message}`), { once: true });
    });
    video.src = url;
    const error = await Promise.race([loaded, new Promise<string>((resolve) => setTimeout(() => resolve('no loadeddata in 15 s'), 15_000))]);
    if (error) return { width: video.videoWidth, height: video.videoHeight, duration: video.duration, played: 0, error };
    await video.play();
    // Played for real: the clock moves past a second (or the video ends).
    const until = performance.now() + 15_000;
    while (video.currentTime < 1.2 && !video.ended && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    video.pause();
    return { width: video.videoWidth, height: video.videoHeight, duration: video.duration, played: video.currentTime, error: video.error ? `media error ${video.error.code}` : null };
  } finally {
    video.remove();
    URL.revokeObjectURL(url);
  }
}

/**
 * Clicks the export button and times it until the page says the export is done (or failed): ms,
 * and the words shown. A MutationObserver sees the button disabled while it runs, then the message.
 */
export async function timeExportInPage(): Promise<{ ms: number; text: string }> {
  const button = document.querySelector<HTMLButtonElement>('[data-testid="export-button"]');
  if (!button) return { ms: -1, text: 'no export button' };
  const section = button.closest('section')!;
  const banner = () => section.querySelector<HTMLElement>('[role="status"], [role="alert"], .banner');
  return new Promise((resolve) => {
    let ran = false;
    let start = 0;
    const check = () => {
      if (button.disabled) ran = true;
      const shown = banner();
      if (ran && !button.disabled && shown) {
        const ms = performance.now() - start;
        observer.disconnect();
        clearTimeout(timer);
        resolve({ ms, text: shown.innerText.trim() });
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(section, { subtree: true, childList: true, attributes: true, characterData: true });
    const timer = setTimeout(() => {
      observer.disconnect();
      resolve({ ms: performance.now() - start, text: `timed out: ${section.innerText.replace(/\s+/g, ' ')}` });
    }, 60_000);
    start = performance.now();
    button.click();
  });
}

/**
 * In the page: each still under `selector` (a video's poster, an image's source) drawn into a
 * canvas, with the share of its pixels that are not black (any channel above 32 of 255).
 */
export async function stillsInPage(selector: string): Promise<{ src: string; lit: number }[]> {
  const sources = [...document.querySelectorAll(selector)].map((el) => (el instanceof HTMLVideoElement ? el.poster : (el as HTMLImageElement).src));
  return Promise.all(
    sources.map(async (src) => {
      if (!src) return { src: '(none)', lit: 0 };
      const image = new Image();
      image.crossOrigin = 'anonymous';
      await new Promise((resolve, reject) => {
        image.onload = resolve;
        image.onerror = () => reject(new Error(`the still ${src.slice(0, 80)} does not load`));
        image.src = src;
      });
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      let lit = 0;
      for (let i = 0; i < pixels.length; i += 4) if (Math.max(pixels[i]!, pixels[i + 1]!, pixels[i + 2]!) > 32) lit++;
      return { src: src.slice(0, 60), lit: lit / (canvas.width * canvas.height || 1) };
    }),
  );
}

/** In the page: the storyboard player's place (the highlighted card's shot, its source); `hurry`: it moved near its end, so that it ends soon. */
export function storyboardPlayInPage(hurry: boolean): { shot: string | null; src: string | null } {
  const player = document.querySelector<HTMLVideoElement>('[data-testid="storyboard-player"]');
  const card = document.querySelector('[data-testid="timeline-card"][aria-current="true"]');
  if (hurry && player && Number.isFinite(player.duration) && player.duration > 1 && player.currentTime < player.duration - 1) player.currentTime = player.duration - 0.5;
  return { shot: card?.getAttribute('data-card-id') ?? null, src: player?.getAttribute('src') ?? null };
}
