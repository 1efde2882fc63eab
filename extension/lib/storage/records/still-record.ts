/**
 * The `stills` store's record: pictures the extension took once from a completed video, so that a
 * tile shows something before it plays. Keyed by the service's task id (a take's, or a gallery
 * item's). Types only, importing nothing from the extension (no import cycles).
 */
export interface StillRecord {
  taskId: string;
  /** A small JPEG (`data:` URL) of a frame near the start. */
  head: string;
  /** The same of a frame near the end (its last frame, as near as a seek gets). */
  tail?: string;
  /** The video's length in seconds, as the browser read it. */
  duration?: number;
  takenAt: number;
}
