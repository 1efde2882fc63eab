import type { StatusFilter } from '@/lib/library/library-view-model';
import type { Problem } from '@/lib/proxy/failure-message';

/** The background refresh, as the status line reads it. */
export type Sync = { state: 'idle' } | { state: 'refreshing' } | { state: 'offline' } | { state: 'failed'; message: string };

/** What the Library tab shows: a screen (groups, one group, one asset), its filters and messages. */
export interface LibraryViewState {
  sync: Sync;
  /** The group shown; null: the groups (or, while searching or filtering, the assets of every group). */
  groupId: string | null;
  /** The asset shown in detail. */
  openId: string | null;
  search: string;
  status: StatusFilter;
  /** The group form shown: a new group, editing the shown group, or its share dialog. */
  form: 'new' | 'edit' | 'share' | null;
  /** Asking before deleting the shown group. */
  confirming: boolean;
  /** The delete is under way. */
  deleting: boolean;
  problem: Problem | null;
  notice: string | null;
}

export type LibraryViewAction =
  /** To another screen (or the new-group form): what the last screen said and asked is dropped. */
  | { type: 'go'; to: Partial<Pick<LibraryViewState, 'groupId' | 'openId'>> & { form?: 'new' } }
  | { type: 'sync'; sync: Sync }
  | { type: 'search'; search: string }
  | { type: 'status'; status: StatusFilter }
  | { type: 'edit' }
  | { type: 'share' }
  | { type: 'confirmDelete' }
  | { type: 'problem'; problem: Problem | null }
  | { type: 'deleteStarted' }
  /** The delete could not be sent (not connected): the question stays. */
  | { type: 'deleteNotSent'; problem: Problem }
  | { type: 'deleteFailed'; problem: Problem }
  | { type: 'deleted'; notice: string }
  /** The shown group no longer exists (deleted here or elsewhere). */
  | { type: 'groupGone' };

export const initialLibraryView: LibraryViewState = {
  sync: { state: 'idle' },
  groupId: null,
  openId: null,
  search: '',
  status: 'all',
  form: null,
  confirming: false,
  deleting: false,
  problem: null,
  notice: null,
};

const left = (state: LibraryViewState): LibraryViewState => ({ ...state, problem: null, notice: null, form: null, confirming: false });

export function libraryViewReducer(state: LibraryViewState, action: LibraryViewAction): LibraryViewState {
  switch (action.type) {
    case 'go':
      return { ...left(state), ...action.to };
    case 'sync':
      return { ...state, sync: action.sync };
    case 'search':
      return { ...state, search: action.search };
    case 'status':
      return { ...state, status: action.status };
    case 'edit':
      return { ...state, form: 'edit' };
    case 'share':
      return { ...state, form: 'share', problem: null, notice: null };
    case 'confirmDelete':
      return { ...state, confirming: true };
    case 'problem':
      return { ...state, problem: action.problem };
    case 'deleteStarted':
      return { ...state, deleting: true, problem: null };
    case 'deleteNotSent':
      return { ...state, deleting: false, problem: action.problem };
    case 'deleteFailed':
      return { ...state, deleting: false, confirming: false, problem: action.problem };
    case 'deleted':
      return { ...left(state), groupId: null, deleting: false, notice: action.notice };
    case 'groupGone':
      return { ...state, groupId: null };
  }
}
