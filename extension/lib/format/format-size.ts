/** A size as the member reads it: `812 bytes`, `7.6 KB`, `2.1 MB`, `50 MB` (1 KB = 1024 bytes, as the proxy's limits). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  const rounded = value >= 100 || Number.isInteger(value) ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
  return `${rounded} ${unit}`;
}
