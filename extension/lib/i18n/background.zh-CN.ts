import type { backgroundEn } from './background.en';

/** 简体中文 of the background: notifications and context menus. */
export const backgroundZhCN: Record<keyof typeof backgroundEn, string> = {
};
