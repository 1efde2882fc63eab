/**
 * The Library's files chunk (loaded on intent: a drag of files, "Add files…" hovered, focused or
 * clicked): the picker, the group question and the reading progress. Kept out of the popup's first
 * paint with the proxy's media rules the picker's `accept` lists.
 */
export { FileInput } from '@/entrypoints/popup/library/FileInput';
export { FileReads } from '@/entrypoints/popup/library/FileReads';
export { GroupPicker } from '@/entrypoints/popup/library/GroupPicker';
