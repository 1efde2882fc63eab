import type { filesEn } from '@/lib/i18n/files.en';

/** 简体中文 of local files dropped or picked, and the library grid (popup/library). */
export const filesZhCN: Record<keyof typeof filesEn, string> = {
};
