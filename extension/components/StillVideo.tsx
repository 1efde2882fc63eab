import { useState } from 'preact/hooks';
import { t } from '@/lib/i18n/translate';
import type { StillSubject } from '@/lib/tasks/task-stills';
import { useStill } from '@/lib/tasks/use-still';
import '@/components/stills.css';
import '@/lib/i18n/tasks.en';

interface StillVideoProps {
  subject: StillSubject;
  label: string;
  /** The place's own class for its player (size, margins). */
  class: string;
}

/**
 * A video tile that shows a still until it plays (`poster`: the kept last frame, else one taken from
 * the video), and says in words when the video is gone rather than showing an empty player.
 */
export function StillVideo({ subject, label, class: className }: StillVideoProps) {
  const still = useStill(subject, 'poster');
  const [failed, setFailed] = useState(false);
  if (still.gone || failed) {
    return (
      <p class="still-gone" data-testid="video-gone">
        {t('tasks.still.gone')}
      </p>
    );
  }
  return (
    <video
      class={`${className} still-video`}
      src={subject.url}
      poster={still.poster}
      data-still={still.poster ? 'ready' : 'pending'}
      controls
      preload="metadata"
      aria-label={label}
      onError={() => setFailed(true)}
    />
  );
}
