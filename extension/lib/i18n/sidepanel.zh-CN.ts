import type { sidepanelEn } from '@/lib/i18n/sidepanel.en';

/** 简体中文 of the side panel (entrypoints/sidepanel): media on this page, its filters and saving. */
export const sidepanelZhCN: Record<keyof typeof sidepanelEn, string> = {
};
