/** English strings of local files dropped or picked, and the library grid (popup/library). */
export const filesEn = {
  'files.add': 'Add files…',
  'files.dropHint': 'Or drop files here.',
  'files.dropTo': 'Drop files to add to {group}',
  'files.dropChoose': 'Drop files, then choose a group',
  'files.goesTo': 'Files go to {group}.',
  'files.pick': 'Add {count, plural, one {# file} other {# files}} to',
  'files.pickAdd': 'Add',
  'files.noGroup': 'Create a group first, then add files to it.',
  'files.reading': 'Reading {name}: {read} of {size}',
  'files.unnamed': 'File',
  'files.changed': 'it changed while being read',
  'files.readFailed': 'Not added: the file could not be read ({why}).',
  'files.refuse.tooLarge': 'Not added: this file is {size}; the library takes files up to {limit}.',
  'library.grid.layout': 'Show as',
  'library.grid.list': 'List',
  'library.grid.grid': 'Grid',
} as const;
