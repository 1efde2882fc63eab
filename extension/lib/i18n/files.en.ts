/** English strings of local files dropped or picked, and the library grid (popup/library). */
export const filesEn = {
} as const;
