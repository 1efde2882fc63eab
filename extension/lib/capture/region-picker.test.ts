import { afterEach, describe, expect, it } from 'vitest';
import { pickRegion, readPickedRegion, type RegionPickerText } from '@/lib/capture/region-picker';

const TEXT: RegionPickerText = { label: 'Select a region', instructions: 'Drag to select. Press Escape to cancel.', size: '{width} × {height}' };

const overlay = () => document.querySelector<HTMLElement>('[data-arkbridge-region]');
const inside = (selector: string) => overlay()!.shadowRoot!.querySelector<HTMLElement>(selector)!;

function pointer(type: string, x: number, y: number): void {
  overlay()!.dispatchEvent(new PointerEvent(type, { clientX: x, clientY: y, button: 0, pointerId: 1, bubbles: true, cancelable: true }));
}

function drag(from: [number, number], to: [number, number]): void {
  pointer('pointerdown', ...from);
  pointer('pointermove', (from[0] + to[0]) / 2, (from[1] + to[1]) / 2);
  pointer('pointermove', ...to);
  pointer('pointerup', ...to);
}

afterEach(() => {
  document.querySelectorAll('[data-arkbridge-region]').forEach((e) => e.remove());
});

describe('pickRegion (the overlay, in the page)', () => {
  it('shows the instructions as an accessible status in a labelled dialog', () => {
    void pickRegion(TEXT, 4, 60_000);
    expect(overlay()!.getAttribute('role')).toBe('dialog');
    expect(overlay()!.getAttribute('aria-label')).toBe('Select a region');
    expect(overlay()!.style.cursor).toBe('crosshair');
    expect(inside('.help').textContent).toBe(TEXT.instructions);
    expect(inside('.help').getAttribute('role')).toBe('status');
  });

  it('answers the dragged rectangle in viewport pixels, whichever way it was dragged, and removes itself', async () => {
    const picked = pickRegion(TEXT, 4, 60_000);
    pointer('pointerdown', 300, 200);
    pointer('pointermove', 120, 90);
    expect(inside('.size').textContent).toBe('180 × 110');
    pointer('pointerup', 100, 80);
    expect(overlay()).toBeNull();
    expect(await picked).toEqual({ x: 100, y: 80, width: 200, height: 120, dpr: devicePixelRatio || 1, viewportWidth: innerWidth });
  });

  it('answers null for a click without a drag', async () => {
    const picked = pickRegion(TEXT, 4, 60_000);
    drag([50, 50], [52, 80]);
    expect(await picked).toBeNull();
    expect(overlay()).toBeNull();
  });

  it('answers null on Escape', async () => {
    const picked = pickRegion(TEXT, 4, 60_000);
    pointer('pointerdown', 10, 10);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(await picked).toBeNull();
    expect(overlay()).toBeNull();
  });

  it('closes an earlier overlay when opened again', async () => {
    const first = pickRegion(TEXT, 4, 60_000);
    const second = pickRegion(TEXT, 4, 60_000);
    expect(await first).toBeNull();
    expect(document.querySelectorAll('[data-arkbridge-region]')).toHaveLength(1);
    drag([0, 0], [40, 30]);
    expect(await second).toMatchObject({ width: 40, height: 30 });
  });

  it('closes by itself after the timeout', async () => {
    expect(await pickRegion(TEXT, 4, 5)).toBeNull();
    expect(overlay()).toBeNull();
  });
});

describe('readPickedRegion', () => {
  it('takes a rectangle the overlay could have drawn', () => {
    const region = { x: 10, y: 20, width: 30, height: 40, dpr: 2, viewportWidth: 1280 };
    expect(readPickedRegion({ ...region, extra: 'dropped' })).toEqual(region);
  });

  it.each([
    ['nothing', null],
    ['a string', 'region'],
    ['no size', { x: 0, y: 0, width: 0, height: 10, dpr: 1, viewportWidth: 800 }],
    ['no ratio', { x: 0, y: 0, width: 10, height: 10, viewportWidth: 800 }],
    ['no viewport', { x: 0, y: 0, width: 10, height: 10, dpr: 1 }],
    ['an infinite edge', { x: Infinity, y: 0, width: 10, height: 10, dpr: 1, viewportWidth: 800 }],
    ['a huge size', { x: 0, y: 0, width: 1e9, height: 10, dpr: 1, viewportWidth: 800 }],
    ['a text number', { x: '1', y: 0, width: 10, height: 10, dpr: 1, viewportWidth: 800 }],
  ])('refuses %s', (_, value) => {
    expect(readPickedRegion(value)).toBeNull();
  });
});
