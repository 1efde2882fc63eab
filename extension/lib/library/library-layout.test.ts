import { afterEach, describe, expect, it, vi } from 'vitest';
import { readLibraryLayout, rememberLibraryLayout } from '@/lib/library/library-layout';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('library layout', () => {
  it('is the grid until the member chooses, then what they chose', () => {
    expect(readLibraryLayout()).toBe('grid');
    rememberLibraryLayout('grid');
    expect(readLibraryLayout()).toBe('grid');
    rememberLibraryLayout('list');
    expect(readLibraryLayout()).toBe('list');
  });

  it('reads anything else stored as the grid, and survives storage refusing', () => {
    localStorage.setItem('arkbridge.library.layout', 'mosaic');
    expect(readLibraryLayout()).toBe('grid');
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    expect(() => rememberLibraryLayout('grid')).not.toThrow();
  });
});
