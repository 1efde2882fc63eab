import { describe, expect, it } from 'vitest';
import { initialLibraryView, libraryViewReducer, type LibraryViewState } from '@/entrypoints/popup/library/library-view-state';

const reduce = (state: LibraryViewState, ...actions: Parameters<typeof libraryViewReducer>[1][]) => actions.reduce(libraryViewReducer, state);

describe('library view state', () => {
  it('going to another screen drops the last screen’s messages, form and question', () => {
    const busy = reduce(initialLibraryView, { type: 'go', to: { groupId: 'g1' } }, { type: 'edit' }, { type: 'confirmDelete' }, { type: 'problem', problem: { message: 'x' } });
    expect(reduce(busy, { type: 'go', to: { openId: 'a1' } })).toMatchObject({ groupId: 'g1', openId: 'a1', form: null, confirming: false, problem: null });
  });

  it('keeps the search and the status filter across screens', () => {
    const state = reduce(initialLibraryView, { type: 'search', search: 'cat' }, { type: 'status', status: 'Failed' }, { type: 'go', to: { groupId: 'g1' } });
    expect(state).toMatchObject({ search: 'cat', status: 'Failed', groupId: 'g1' });
  });

  it('a failed delete closes the question and says why; a delete not sent keeps asking', () => {
    const asking = reduce(initialLibraryView, { type: 'go', to: { groupId: 'g1' } }, { type: 'confirmDelete' }, { type: 'deleteStarted' });
    expect(reduce(asking, { type: 'deleteFailed', problem: { message: 'no' } })).toMatchObject({ confirming: false, deleting: false, problem: { message: 'no' } });
    expect(reduce(asking, { type: 'deleteNotSent', problem: { message: 'no' } })).toMatchObject({ confirming: true, deleting: false });
  });

  it('a deleted group goes back to the groups with a notice', () => {
    const asking = reduce(initialLibraryView, { type: 'go', to: { groupId: 'g1' } }, { type: 'confirmDelete' }, { type: 'deleteStarted' });
    expect(reduce(asking, { type: 'deleted', notice: 'Deleted' })).toMatchObject({ groupId: null, confirming: false, deleting: false, notice: 'Deleted' });
  });
});
