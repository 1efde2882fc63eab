import { TOKEN_LABEL_MAX } from '../../../../shared';

/**
 * The label of a token minted by member sign-in when the extension names none: the browser and the
 * system from the User-Agent, in a few words ("Chrome on macOS"). Never the whole header.
 */

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\bFirefox\//, 'Firefox'],
  [/Chrom(?:e|ium)\//, 'Chrome'], // HeadlessChrome too
  [/\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\b(?:iPhone|iPad)\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export function browserLabel(userAgent: string | undefined): string {
  const ua = (userAgent ?? '').slice(0, 512);
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? 'A browser';
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  return (system ? `${browser} on ${system}` : browser).slice(0, TOKEN_LABEL_MAX);
}
