import { backgroundEn } from '@/lib/i18n/background.en';
import { captureEn } from '@/lib/i18n/capture.en';
import { filesEn } from '@/lib/i18n/files.en';
import { generateEn } from '@/lib/i18n/generate.en';
import { optionsEn } from '@/lib/i18n/options.en';
import { popupEn } from '@/lib/i18n/popup.en';
import { portraitEn } from '@/lib/i18n/portrait.en';
import { sidepanelEn } from '@/lib/i18n/sidepanel.en';
import { searchEn } from '@/lib/i18n/search.en';
import { snapshotEn } from '@/lib/i18n/snapshot.en';
import { tasksEn } from '@/lib/i18n/tasks.en';
import { studioEn } from '@/lib/i18n/studio.en';
import { teamEn } from '@/lib/i18n/team.en';

/**
 * Every English string, by part. The type of every key (MessageKey); the background bundles all
 * of it. Pages load only their parts (translate: the popup's core up front, others provided).
 */
export const en = { ...popupEn, ...generateEn, ...tasksEn, ...portraitEn, ...optionsEn, ...backgroundEn, ...captureEn, ...sidepanelEn, ...snapshotEn, ...filesEn, ...teamEn, ...studioEn, ...searchEn } as const;

export type MessageKey = keyof typeof en;
