/** Short names for the catalog's model ids, for tests (the ids are long and easy to mistype). */
export const MODEL_IDS = {
  t2v: 'doubao-seedance-1-0-lite-t2v-250428',
  i2v: 'doubao-seedance-1-0-lite-i2v-250428',
  pro: 'doubao-seedance-1-0-pro-250528',
  proFast: 'doubao-seedance-1-0-pro-fast-251015',
  pro15: 'doubao-seedance-1-5-pro-251215',
  s2: 'doubao-seedance-2-0-260128',
  s2fast: 'doubao-seedance-2-0-fast-260128',
} as const;
