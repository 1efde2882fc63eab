/** English strings of the background: notifications and context menus. */
export const backgroundEn = {
} as const;
