/** English strings of the options page and the new-group page. */
export const optionsEn = {
} as const;
