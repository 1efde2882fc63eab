/**
 * Reading which theme a page painted (the tokens' light or dark values, components/tokens.css):
 * the computed background of its body, as relative luminance (WCAG's: 0 black, 1 white).
 */

/** Evaluated in the page: the body's background colour once the stylesheet applied, as [r, g, b]. */
export async function bodyBackgroundInPage(): Promise<number[]> {
  const painted = () => {
    const colour = getComputedStyle(document.body).backgroundColor;
    return document.body.children.length > 0 && colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent' ? colour : null;
  };
  for (let i = 0; i < 150 && !painted(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  return (painted() ?? '').match(/\d+(\.\d+)?/g)?.slice(0, 3).map(Number) ?? [];
}

/** WCAG relative luminance of an sRGB colour. */
export function luminance([r = 0, g = 0, b = 0]: number[]): number {
  const [lr, lg, lb] = [r, g, b].map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lr! + 0.7152 * lg! + 0.0722 * lb!;
}

/** Below this the body reads as dark (the dark theme's grey is about 0.013); above LIGHT, light. */
export const DARK = 0.05;
export const LIGHT = 0.8;

/** The extension's pages a theme must reach: every page a member opens. */
export const THEMED_PAGES = ['popup.html', 'sidepanel.html', 'options.html', 'studio.html'] as const;
