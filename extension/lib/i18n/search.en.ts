/** English strings (up front in every context: english-parts) of the library's search, provenance, duplicates and "Find similar" (popup/library, side panel). */
export const searchEn = {
  // Provenance (the asset's detail).
  'source.title': 'Source',
  'source.how.link': 'Linked from a page',
  'source.how.upload': 'Read from a page and uploaded',
  'source.how.screenshot': 'Screenshot',
  'source.how.frame': 'Video frame',
  'source.how.file': 'File from this computer',
  'source.capturedAt': 'Captured {date}',
  'source.page': 'Page: ',
  'source.none': 'Where it came from was not recorded.',
  'source.loading': 'Looking up where it came from…',
  // Search as you type.
  'search.label': 'Search the library',
  'search.placeholder': 'Name, type, group, page…',
  'search.type': 'Type',
  'search.status': 'Status',
  'search.group': 'Group',
  'search.any': 'Any',
  'search.results': '{count, plural, =0 {No assets match} one {# asset matches} other {# assets match}}',
  'search.clear': 'Clear search',
  // Duplicates.
  'duplicate.title': 'Already in the library',
  'duplicate.message': '“{name}” in {group} (added by {owner}) looks the same.',
  'duplicate.ownerYou': 'you',
  'duplicate.ownerUnknown': 'a teammate',
  'duplicate.addAnyway': 'Add anyway',
  'duplicate.openExisting': 'Open the existing one',
  'duplicate.notify.title': 'Saved, but it may be a duplicate',
  'duplicate.notify.message': '“{name}” looks like “{existing}” in {group}.',
  // Find similar.
  'similar.find': 'Find similar',
  'similar.title': 'Similar assets',
  'similar.none': 'Nothing similar in the library.',
  'similar.distance': '{distance} of 256 bits differ',
  // The side panel's grid.
  'sidepanel.inLibrary': 'Already in the library ({group})',
  'sidepanel.inLibraryShort': 'In library',
} as const;
