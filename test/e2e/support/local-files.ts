/**
 * Files dragged from the desktop, in Playwright: a page cannot be given a real OS drag, so a
 * DataTransfer holding File objects is made in the page and the drag events are dispatched on the
 * target with it, as Chromium dispatches them for a drag from outside (dragenter, dragover, drop).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JSHandle, Locator, Page } from 'playwright-core';
import { MEDIA_FIXTURES_DIR } from '../../support/media-server';

export interface FixtureFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A file of test/fixtures/media, as a picker or a drop hands it over. */
export async function fixtureFile(fixture: string, name: string, mimeType: string): Promise<FixtureFile> {
  return { name, mimeType, buffer: await readFile(join(MEDIA_FIXTURES_DIR, fixture)) };
}

/** A DataTransfer in the page holding `files`. */
export function dataTransferOf(page: Page, files: readonly FixtureFile[]): Promise<JSHandle<DataTransfer>> {
  return page.evaluateHandle(
    (list) => {
      const transfer = new DataTransfer();
      for (const f of list) transfer.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
      return transfer;
    },
    files.map((f) => ({ name: f.name, mimeType: f.mimeType, base64: f.buffer.toString('base64') })),
  );
}

/** Files dragged over `target` (not dropped yet): the drop target shows. */
export async function dragFilesOver(target: Locator, transfer: JSHandle<DataTransfer>): Promise<void> {
  await target.dispatchEvent('dragenter', { dataTransfer: transfer });
  await target.dispatchEvent('dragover', { dataTransfer: transfer });
}

/** The files dragged over `target` are dropped there. */
export async function dropFiles(target: Locator, transfer: JSHandle<DataTransfer>): Promise<void> {
  await target.dispatchEvent('drop', { dataTransfer: transfer });
}
