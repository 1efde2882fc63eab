import type { optionsEn } from './options.en';

/** 简体中文 of the options page and the new-group page. */
export const optionsZhCN: Record<keyof typeof optionsEn, string> = {
};
