/**
 * Compare's one control over two to four players: play, pause and seek drive all of them, and
 * playing first brings every player to the same time (the first one's), so the takes run side by
 * side frame for frame.
 */

/** What the control needs of a player (an HTMLVideoElement has it). */
export interface SyncedMedia {
  currentTime: number;
  readonly paused: boolean;
  readonly duration: number;
  play(): Promise<void> | void;
  pause(): void;
}

/** Players drifting apart by more than this (seconds) are brought back together. */
export const DRIFT_S = 0.15;

export class CompareSync {
  constructor(private readonly media: () => readonly SyncedMedia[]) {}

  /** The time the control shows: the first player's. */
  get time(): number {
    return this.media()[0]?.currentTime ?? 0;
  }

  /** The longest take's length (NaN until known). */
  get duration(): number {
    const known = this.media()
      .map((m) => m.duration)
      .filter((d) => Number.isFinite(d));
    return known.length ? Math.max(...known) : NaN;
  }

  get playing(): boolean {
    return this.media().some((m) => !m.paused);
  }

  async play(): Promise<void> {
    this.align();
    await Promise.all(this.media().map((m) => Promise.resolve(m.play()).catch(() => {})));
  }

  pause(): void {
    for (const m of this.media()) m.pause();
    this.align();
  }

  toggle(): Promise<void> | void {
    return this.playing ? this.pause() : this.play();
  }

  seek(seconds: number): void {
    const to = Math.max(0, seconds);
    for (const m of this.media()) m.currentTime = Number.isFinite(m.duration) ? Math.min(to, m.duration) : to;
  }

  /** Brings the others to the first player's time when they drifted. */
  align(): void {
    const [lead, ...rest] = this.media();
    if (!lead) return;
    for (const m of rest) if (Math.abs(m.currentTime - lead.currentTime) > DRIFT_S) m.currentTime = lead.currentTime;
  }
}
