/** English strings of the side panel (entrypoints/sidepanel): media on this page, its filters and saving. */
export const sidepanelEn = {
} as const;
