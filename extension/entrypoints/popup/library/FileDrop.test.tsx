import { useState } from 'preact/hooks';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { button, mount, text, unmount } from '@/components/dom-testing';
import { AddFilesButton, DROP_GROUP, FileDrop } from '@/entrypoints/popup/library/FileDrop';
import { ACCEPT, FileInput } from '@/entrypoints/popup/library/FileInput';

afterEach(() => unmount());

const png = () => new File([new Uint8Array([0x89, 0x50])], 'a.png', { type: 'image/png' });

/** A drag event carrying `files` (or only text), as the browser sends it. */
function drag(target: Element, type: string, files: File[] | null) {
  const event = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'dataTransfer', { value: { types: files ? ['Files'] : ['text/plain'], files: files ?? [], dropEffect: 'none' } });
  act(() => void target.dispatchEvent(event));
  return event;
}

function mountDrop(targetName: string | null = 'Moodboard') {
  const onFiles = vi.fn();
  mount(
    <FileDrop targetName={targetName} groupName={(id) => ({ g2: 'Cats' })[id]} onFiles={onFiles}>
      <p id="inside">Library</p>
      <div {...{ [DROP_GROUP]: 'g2' }}>
        <span id="row">Cats row</span>
      </div>
    </FileDrop>,
  );
  return onFiles;
}
const inside = () => document.getElementById('inside')!;
const target = () => document.querySelector('.drop__target');

describe('FileDrop', () => {
  it('says where dragged files will go, until the drag leaves (however many children it crossed)', () => {
    mountDrop();
    expect(drag(inside(), 'dragenter', [png()]).defaultPrevented).toBe(true);
    expect(target()?.textContent).toBe('Drop files to add to Moodboard');
    drag(document.getElementById('row')!, 'dragenter', [png()]);
    expect(drag(document.getElementById('row')!, 'dragover', [png()]).defaultPrevented).toBe(true);
    expect(target()?.textContent).toBe('Drop files to add to Cats');
    drag(inside(), 'dragleave', [png()]);
    expect(target()).not.toBeNull();
    drag(document.getElementById('row')!, 'dragleave', [png()]);
    expect(target()).toBeNull();
  });

  it('leaves drags of text or links alone', () => {
    const onFiles = mountDrop();
    expect(drag(inside(), 'dragenter', null).defaultPrevented).toBe(false);
    expect(drag(inside(), 'drop', null).defaultPrevented).toBe(false);
    expect(target()).toBeNull();
    expect(onFiles).not.toHaveBeenCalled();
  });

  it('hands dropped files over with the group row they fell on, or none', () => {
    const onFiles = mountDrop();
    const files = [png(), png()];
    drag(inside(), 'dragenter', files);
    expect(drag(inside(), 'drop', files).defaultPrevented).toBe(true);
    expect(onFiles).toHaveBeenLastCalledWith(files, null);
    expect(target()).toBeNull();
    drag(document.getElementById('row')!, 'drop', files);
    expect(onFiles).toHaveBeenLastCalledWith(files, 'g2');
  });

  it('takes a drop as soon as it is in the page, shown by an update outside any act (as after a read)', async () => {
    const onFiles = vi.fn();
    let show!: () => void;
    function Later() {
      const [shown, setShown] = useState(false);
      show = () => setShown(true);
      return shown ? (
        <FileDrop targetName="Moodboard" groupName={() => undefined} onFiles={onFiles}>
          <p id="inside">Library</p>
        </FileDrop>
      ) : null;
    }
    mount(<Later />);
    show(); // no act: rendered on preact's own schedule (a microtask), its effects after the next frame
    for (let i = 0; i < 5 && !document.getElementById('inside'); i++) await Promise.resolve();
    expect(document.getElementById('inside')).not.toBeNull();
    const files = [png()];
    drag(inside(), 'drop', files);
    expect(onFiles).toHaveBeenCalledWith(files, null);
  });

  it('asks for a group when nothing says which', () => {
    mountDrop(null);
    drag(inside(), 'dragenter', [png()]);
    expect(text()).toContain('Drop files, then choose a group');
  });
});

describe('AddFilesButton and FileInput', () => {
  it('starts loading the picker on hover or focus, and asks for it on click', () => {
    const onIntent = vi.fn();
    const onPick = vi.fn();
    mount(<AddFilesButton onIntent={onIntent} onPick={onPick} />);
    act(() => void button('Add files…').dispatchEvent(new Event('pointerenter')));
    act(() => button('Add files…').focus());
    expect(onIntent).toHaveBeenCalledTimes(2);
    button('Add files…').click();
    expect(onPick).toHaveBeenCalledTimes(1);
  });

  it('picks several files of the types the proxy takes, and hands the picked ones over', () => {
    const onFiles = vi.fn();
    mount(<FileInput inputRef={{ current: null }} onFiles={onFiles} />);
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input.multiple).toBe(true);
    const accepted = input.accept.split(',');
    expect(accepted).toEqual(expect.arrayContaining(['image/png', 'image/jpeg', 'video/mp4', 'video/quicktime', 'audio/mpeg', 'audio/wav', '.mov', '.mp3']));
    expect(accepted).not.toContain('image/svg+xml');
    expect(input.accept).toBe(ACCEPT);
    const files = [png()];
    Object.defineProperty(input, 'files', { value: files, configurable: true });
    act(() => void input.dispatchEvent(new Event('change', { bubbles: true })));
    expect(onFiles).toHaveBeenCalledWith(files);
  });
});
