import { provideEnglish } from '@/lib/i18n/english-parts';

/** English strings of screenshots and video frames (lib/capture: visible area, region, frame). */
export const snapshotEn = {
  // The context menu (lib/background/context-menu).
  'snapshot.menu.visible': 'Capture visible area',
  'snapshot.menu.region': 'Capture a region…',
  'snapshot.menu.frame': 'Capture this frame',
  // The region overlay, drawn in the page (lib/capture/region-picker).
  'snapshot.region.label': 'Arkbridge: select a region to capture',
  'snapshot.region.instructions': 'Drag to select the area to capture. Press Escape to cancel.',
  'snapshot.region.size': '{width} × {height}',
  // Names of what is saved (lib/capture/snapshot-names).
  'snapshot.name.screenshot': 'Screenshot of {title} {time}',
  'snapshot.name.frame': 'Frame of {name} at {time}',
  'snapshot.name.untitled': 'a page',
  // Notifications (lib/background/snapshot-save).
  'snapshot.saved.title': 'Saved to {group}',
  'snapshot.saved.message': '{name} is being added. Arkbridge tells you when it is ready.',
  'snapshot.failed.title': 'Nothing captured',
  'snapshot.failed.page': 'This page cannot be captured: the browser keeps its own pages and the extension store off limits.',
  'snapshot.failed.capture': 'The browser did not take the screenshot ({why}). Try again.',
  'snapshot.failed.noVideo': 'No video was found where you clicked.',
  'snapshot.failed.notReady': 'The video has no picture yet. Play it (or seek), then capture the frame again.',
  'snapshot.failed.crossFrame': 'This video plays inside a frame of another site that does not allow copying its pictures, and the frame could not be located on the page. Use “Capture a region…” around it instead.',
  'snapshot.failed.embedded': 'The browser does not let Arkbridge read this embedded player (a frame from another site). Use “Capture a region…” around it instead.',
  'snapshot.failed.read': 'The frame could not be read from the page ({why}). Try again.',
} as const;

// Importing this part makes its strings available: a module that names them imports it (page-strings.test).
provideEnglish(snapshotEn);
