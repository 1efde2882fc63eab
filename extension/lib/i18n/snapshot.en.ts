/** English strings of screenshots and video frames (lib/capture: visible area, region, frame). */
export const snapshotEn = {
} as const;
