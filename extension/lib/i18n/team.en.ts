import { provideEnglish } from '@/lib/i18n/english-parts';

/**
 * English strings of the team library's views: the share dialog, the Team tab (the gallery) and
 * publishing from Tasks. Loaded with those chunks, not in the popup's first paint.
 */
export const teamEn = {
  'share.title': 'Share “{name}”',
  'share.hint': 'Editors add, rename and delete its assets and rename the group; viewers use its assets in Generate. Only you delete it or change its sharing.',
  'share.loading': 'Loading who can use this group…',
  'share.loadFailed': 'Could not read this group’s sharing: {message}',
  'share.team': 'Everyone in the team',
  'share.members': 'Members',
  'share.memberRole': 'Role of {name}',
  'share.noMembers': 'There are no other members in the team yet.',
  'share.role.none': 'No access',
  'share.role.viewer': 'Can view',
  'share.role.editor': 'Can edit',
  'share.role.team': 'As the team ({role})',
  'share.personViewerOnly': 'A real-person group can be shared to view only.',
  'share.save': 'Save sharing',
  'share.saving': 'Saving…',
  'share.saved': 'Sharing saved.',
  'share.notOwner': 'Only the group’s owner can change its sharing.',
  'share.notFound': 'This group is no longer in the library, or it is not yours to share.',
  'team.title': 'Team gallery',
  'team.refresh': 'Refresh',
  'team.loading': 'Loading the gallery…',
  'team.loadFailed': 'Could not load the gallery: {message}',
  'team.empty': 'Nothing published yet. Publish a finished video from Tasks.',
  'team.listLabel': 'Videos the team published, newest first',
  'team.madeBy': 'By {name}',
  'team.you': 'you',
  'team.costTitle': 'What it cost',
  'team.player': 'Video by {name}: {model}',
  'team.noVideo': 'The video is no longer kept.',
  'team.noPrompt': 'No prompt.',
  'team.more': 'Show more',
  'team.reuse': 'Reuse these settings',
  'team.reused': 'The Generate form now has these settings.',
  'team.reusedSaved': 'Saved to the Generate form: open Generate in the Arkbridge popup.',
  'team.reuseDropped': 'Left out: {items}.',
  'team.inlineDropped': 'an inline file (not kept in the gallery)',
  'team.noRequest': 'Published before its settings were kept: nothing to reuse.',
  'team.remove': 'Remove from the gallery',
  'team.removeConfirm': 'Remove this video from the team gallery? The video itself stays in your tasks.',
  'team.removeYes': 'Remove',
  'team.removed': 'Removed from the gallery.',
  'team.removeFailed': 'Could not remove it: {message}',
  'publish.action': 'Publish to the team',
  'publish.busy': 'Publishing…',
  'publish.done': 'Published to the team gallery.',
  'publish.published': 'Published to the team',
  'publish.failed': 'Could not publish: {message}',
  'publish.notCompleted': 'Only a completed video can be published.',
} as const;

// Importing this part makes its strings available: a module that names them imports it (page-strings.test).
provideEnglish(teamEn);
