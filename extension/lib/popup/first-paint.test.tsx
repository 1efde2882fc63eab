import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, unmount } from '@/components/dom-testing';
import { afterFirstPaint, FIRST_PAINT_MARK, FIRST_PAINT_WAIT_MS, useFirstPaintMark } from '@/lib/popup/first-paint';

afterEach(() => {
  unmount();
  vi.useRealTimers();
  performance.clearMarks(FIRST_PAINT_MARK);
});

function View({ ready }: { ready: boolean }) {
  useFirstPaintMark(ready);
  return <p>view</p>;
}

describe('afterFirstPaint', () => {
  it('waits for the frame that shows saved data, then runs (at once once it was painted)', async () => {
    performance.clearMarks(FIRST_PAINT_MARK);
    const task = vi.fn();
    afterFirstPaint(task);
    mount(<View ready={false} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(task).not.toHaveBeenCalled();
    mount(<View ready />);
    await vi.waitFor(() => expect(task).toHaveBeenCalledTimes(1));
    expect(performance.getEntriesByName(FIRST_PAINT_MARK)).toHaveLength(1);
    const later = vi.fn();
    afterFirstPaint(later);
    expect(later).toHaveBeenCalledTimes(1);
  });

  it('runs anyway after a while when no view marks its first paint', () => {
    vi.useFakeTimers();
    performance.clearMarks(FIRST_PAINT_MARK);
    const task = vi.fn();
    afterFirstPaint(task);
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS - 1);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(task).toHaveBeenCalledTimes(1);
  });
});
