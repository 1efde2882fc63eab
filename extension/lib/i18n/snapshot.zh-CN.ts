import type { snapshotEn } from '@/lib/i18n/snapshot.en';

/** 简体中文 of screenshots and video frames (lib/capture: visible area, region, frame). */
export const snapshotZhCN: Record<keyof typeof snapshotEn, string> = {
};
