import { provideEnglish } from '@/lib/i18n/english-parts';

/** English strings of the background: notifications and context menus. */
export const backgroundEn = {
  // Context menu (lib/menus).
  'menu.addMedia': 'Add to asset library',
  'menu.addLink': 'Add linked media to asset library',
  'menu.connect': 'Connect Arkbridge to your team…',
  'menu.defaultGroup': '{name} (default)',
  'menu.createDefault': 'Web captures (new default group)',
  'menu.sharedGroup': '{name} — {owner}',
  'menu.newGroup': 'New group…',
  'menu.pageMedia': 'Save media from this page…',
  // The group the first capture creates when there is none.
  'capture.defaultGroup.name': 'Web captures',
  'capture.defaultGroup.description': 'Added from the browser with Arkbridge.',
  // Why a right-clicked address cannot be added, and what to do (lib/capture/url-rules).
  'capture.url.blob': 'This media is streamed by the page (a blob: address) and has no public link.',
  'capture.url.blobAdvice': 'Find a direct link to the file (for example a download link) and add that instead.',
  'capture.url.data': 'This media is embedded in the page (a data: address) and has no public link.',
  'capture.url.dataAdvice': 'Save the file, upload it somewhere public over https://, and add that address.',
  'capture.url.file': 'This is a file on your computer; the service can only download public https:// links.',
  'capture.url.fileAdvice': 'Upload the file somewhere public over https://, then add that address.',
  'capture.url.http': 'This media is served over plain http://; the service downloads only https:// links.',
  'capture.url.httpAdvice': 'Open the https:// version of the page or file and try again.',
  'capture.url.missing': 'This item has no address the extension can read.',
  'capture.url.missingAdvice': 'Right-click the image, video or audio itself.',
  'capture.url.invalid': 'This item’s address is not a valid URL.',
  'capture.url.invalidAdvice': 'Open the media in its own tab and add it from there.',
  'capture.url.scheme': 'Addresses starting with {scheme} cannot be downloaded by the service.',
  'capture.url.schemeAdvice': 'Use a public https:// link to the file.',
  'capture.url.problem': 'This address {problem}.',
  'capture.url.problemAdvice': 'Use a plain public link to the file.',
  // Notifications (lib/background).
  'notify.connect.title': 'Connect Arkbridge first',
  'notify.connect.message': 'Enter your team’s proxy URL and your member token in the options page.',
  'notify.kind.title': 'Not a media file',
  'notify.kind.message': 'Arkbridge adds images, videos and audio. This link does not point to a media file.',
  'notify.url.title': 'This item cannot be added',
  'notify.group.title': 'Could not create the default group',
  'notify.duplicate.title': 'Already in your library',
  'notify.duplicate.active': '{name} is already in {group}.',
  'notify.duplicate.pending': '{name} is already being added to {group}.',
  'notify.duplicate.thisGroup': 'this group',
  'notify.reconnect.title': 'Arkbridge needs you to reconnect',
  'notify.reconnect.message': 'The proxy no longer accepts your member token. Open the Arkbridge options to reconnect; nothing you added is lost.',
  'notify.asset.ready': 'Ready: {name}',
  'notify.asset.readyMessage': 'Added to {group} and ready for video generation.',
  'notify.asset.yourLibrary': 'your library',
  'notify.asset.failed': 'Could not add: {name}',
  'notify.asset.failedMessage': 'The service could not process this item.',
  'notify.task.ready': 'Your video is ready',
  'notify.task.readyMessage': 'Open Arkbridge to watch or download it (the link expires in about 24 hours).',
  'notify.task.failed': 'Video generation failed',
  'notify.task.failedMessage': 'The service could not generate this video.',
  'notify.portrait.title': 'Real-person group created: {name}',
  'notify.portrait.assets': '{count, plural, one {# captured asset} other {# captured assets}}. Only Active ones can be used for video.',
  'notify.portrait.noAssets': 'Open Arkbridge to see its assets.',
  // The keyboard save (lib/background/keyboard-save).
  'notify.keyboard.saved.title': 'Saved to {group}',
  'notify.keyboard.saved': '{name} ({type}) is being added. Arkbridge tells you when it is ready.',
  'notify.keyboard.nothing.title': 'Nothing to save here',
  'notify.keyboard.nothing': 'No image, video or audio under the pointer, and no main image on this page. Point at the media and press the shortcut again.',
  'notify.keyboard.cannotRead': 'Arkbridge cannot read this page (the browser’s own pages and add-on stores are closed to extensions).',
} as const;

// Importing this part makes its strings available: a module that names them imports it (page-strings.test).
provideEnglish(backgroundEn);
