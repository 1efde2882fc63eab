import { type ContentElement, GENERATION_PARAMETERS, type GenerationParameter, parseAssetRef, type ReferenceRole, type VideoCreateBody } from '@@/shared';
import { formatAmount } from '@/lib/format/money-display';
import { currentLocale, t } from '@/lib/i18n/translate';
import type { LocalTaskStatus, TaskRecord } from '@/lib/storage/records/task-record';
import '@/lib/i18n/generate.en';
import '@/lib/i18n/tasks.en';

/**
 * How the Tasks view presents the task state machine: submitting (recorded, the create not yet
 * answered) -> [waiting (for the service, in the proxy's queue) -> cancelled | failed] -> queued ->
 * in_progress -> completed | failed, with unknown (query again later) on the way. Pure functions of a task record, so that each state is tested without a browser.
 */

/** Statuses after which a task never changes again. */
export const isSettled = (status: LocalTaskStatus): boolean => status === 'completed' || status === 'failed' || status === 'cancelled';

export type StatusTone = 'info' | 'success' | 'warning' | 'error';

/** The words for a task's status: 'Sending…', 'Waiting for the service (2 ahead)', 'Queued', 'Generating 40%'… */
export function statusLabel(task: Pick<TaskRecord, 'status' | 'progress' | 'queuePosition'>): string {
  switch (task.status) {
    case 'submitting':
      return t('tasks.status.submitting');
    case 'waiting':
      return waitingLabel(task.queuePosition);
    case 'cancelled':
      return t('tasks.status.cancelled');
    case 'queued':
      return t('tasks.status.queued');
    case 'in_progress':
      return t('tasks.status.in_progress', { progress: clampProgress(task.progress) });
    case 'completed':
      return t('tasks.status.completed');
    case 'failed':
      return t('tasks.status.failed');
    case 'unknown':
      return t('tasks.status.unknown');
  }
}

/** The place in line: n ahead (position - 1), 'next in line' at 0, no number when the proxy gave none. */
function waitingLabel(position: number | null | undefined): string {
  if (typeof position !== 'number' || !Number.isFinite(position) || position < 1) return t('tasks.status.waitingUnknown');
  const ahead = Math.floor(position) - 1;
  return ahead === 0 ? t('tasks.status.waitingNext') : t('tasks.status.waiting', { ahead });
}

export const statusTone = (status: LocalTaskStatus): StatusTone =>
  status === 'completed' ? 'success' : status === 'failed' ? 'error' : status === 'unknown' || status === 'cancelled' ? 'warning' : 'info';

export const clampProgress = (progress: number): number => Math.max(0, Math.min(100, Math.round(Number.isFinite(progress) ? progress : 0)));

/** The progress bar's value: none while nothing is known (an indeterminate bar), full when done. */
export function progressValue(task: Pick<TaskRecord, 'status' | 'progress'>): number | null {
  if (task.status === 'completed') return 100;
  if (task.status === 'in_progress' || task.status === 'queued') return clampProgress(task.progress);
  return null;
}

/**
 * Milliseconds since the request was made: until completion for a finished task, until now for one
 * on its way; null for a failed task whose end time is not known.
 */
export function elapsedMs(task: Pick<TaskRecord, 'status' | 'createdAt' | 'completedAt'>, now: number): number | null {
  if (task.completedAt !== undefined) return Math.max(0, task.completedAt - task.createdAt);
  if (isSettled(task.status)) return null;
  return Math.max(0, now - task.createdAt);
}

/** `45 s`, `3 min 05 s`, `1 h 02 min`. */
export function formatElapsed(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  if (h) return t('tasks.elapsed.hours', { h, m: two(m) });
  if (m) return t('tasks.elapsed.minutes', { m, s: two(s) });
  return t('tasks.elapsed.seconds', { s });
}

/** The service keeps result links for about 24 hours after completion. */
export const LINK_LIFETIME_MS = 24 * 3600 * 1000;

/** Hours left before a completed task's link probably expires (0 when past), or null when unknown. */
export function linkHoursLeft(task: Pick<TaskRecord, 'completedAt'>, now: number): number | null {
  if (task.completedAt === undefined) return null;
  return Math.max(0, Math.floor((task.completedAt + LINK_LIFETIME_MS - now) / 3600_000));
}

/** The proxy's copy of a completed video, while it is kept: its (signed) address and its last day (unix seconds). */
export interface KeptVideo {
  url: string;
  until: number;
}

/** The kept copy of a task, or null: none (yet), or past its keep date (the proxy removed it). */
export function keptVideo(task: Pick<TaskRecord, 'keptUrl' | 'keptUntil'>, now: number): KeptVideo | null {
  if (task.keptUrl === undefined || task.keptUntil === undefined || task.keptUntil * 1000 <= now) return null;
  return { url: task.keptUrl, until: task.keptUntil };
}

/** The address a completed task is played, downloaded and copied from: its kept copy's, else the service's link. */
export const videoAddress = (task: Pick<TaskRecord, 'keptUrl' | 'keptUntil' | 'videoUrl'>, now: number): string | undefined =>
  keptVideo(task, now)?.url ?? task.videoUrl;

/** A kept copy's last day in the member's language: `23 Dec 2026`, `2026年12月23日`. */
export function formatKeptDate(unixSeconds: number): string {
  const locale = currentLocale() === 'zh-CN' ? 'zh-CN' : 'en-GB';
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(unixSeconds * 1000));
}

/** What a completed task without a kept copy says of it (being made, failed, deleted); null when the proxy said nothing. */
export function keepNote(task: Pick<TaskRecord, 'keep' | 'keepError'>): string | null {
  switch (task.keep) {
    case 'pending':
      return t('tasks.keepPending');
    case 'failed':
      return t('tasks.keepFailed', { reason: task.keepError ?? t('tasks.keepFailedNoReason') });
    case 'deleted':
      return t('tasks.keepDeleted');
    default:
      return null;
  }
}

/** The task's cost as the proxy last said: `3.67 CNY`, or `unpriced` (its model has no price); null when it said nothing. */
export function costLabel(task: Pick<TaskRecord, 'cost'>): string | null {
  if (!task.cost) return null;
  return task.cost.priced ? formatAmount(task.cost.cost, task.cost.currency) : t('tasks.unpriced');
}

/** A create refused for the budgets (by its stored code), in the member's words with what to do; else null. */
export function refusalNote(error: TaskRecord['error']): string | null {
  if (error?.code === 'budget_exceeded') return t('tasks.refusal.budget_exceeded');
  if (error?.code === 'too_many_running_tasks') return t('tasks.refusal.too_many_running_tasks');
  return null;
}

/** The file name a completed video is downloaded as. */
export const downloadName = (task: Pick<TaskRecord, 'taskId' | 'localId'>): string =>
  `arkbridge-${(task.taskId ?? task.localId).replace(/[^\w.-]+/g, '_')}.mp4`;

// --- Naming the parts of a request -------------------------------------------------------------

export const roleOfElement = (element: ContentElement): ReferenceRole | 'text' => (element.type === 'text' ? 'text' : element.role);

/** 'Reference image 2', 'First frame', 'Reference audio 1'… for the `n`th element of a role. */
export function roleLabel(role: ReferenceRole, n: number): string {
  switch (role) {
    case 'reference_image':
      return t('tasks.param.reference_image', { n });
    case 'first_frame':
      return t('tasks.param.first_frame');
    case 'last_frame':
      return t('tasks.param.last_frame');
    case 'reference_video':
      return t('tasks.param.reference_video', { n });
    case 'reference_audio':
      return t('tasks.param.reference_audio', { n });
  }
}

export const paramLabel = (name: GenerationParameter): string => t(`generate.param.${name}`);

const isGenerationParameter = (name: string): name is GenerationParameter => (GENERATION_PARAMETERS as readonly string[]).includes(name);

const CONTENT_PATH = /^content\[(\d+)\](?:\.(?:text|image_url|video_url|audio_url)(?:\.url)?)?$/;
const IMAGES_PATH = /^images\[(\d+)\]$/;

/** The content index a parameter path names (`content[2].image_url` -> 2), or null. */
export function contentIndex(param: string): number | null {
  const match = CONTENT_PATH.exec(param);
  return match ? Number(match[1]) : null;
}

/**
 * What a member calls the part of the request that `param` names: `content[2].image_url` ->
 * 'Reference image 2' (counted per role among the body's content elements), 'First frame',
 * 'Prompt', 'Resolution'… Unknown paths are answered as they are.
 */
export function describeParam(param: string, body?: Pick<VideoCreateBody, 'content'>): string {
  if (param === 'prompt') return t('tasks.param.prompt');
  if (param === 'content') return t('tasks.param.content');
  if (param === 'image') return t('tasks.param.reference_image', { n: 1 });
  const images = IMAGES_PATH.exec(param);
  if (images) return t('tasks.param.reference_image', { n: Number(images[1]) + 1 });
  if (isGenerationParameter(param)) return paramLabel(param);
  const index = contentIndex(param);
  if (index === null) return param;
  const element = body?.content?.[index];
  if (!element) return t('tasks.param.element', { n: index + 1 });
  const role = roleOfElement(element);
  if (role === 'text') return t('tasks.param.prompt');
  const n = body!.content!.slice(0, index + 1).filter((e) => roleOfElement(e) === role).length;
  return roleLabel(role, n);
}

const PATH_IN_TEXT = /\b(content\[\d+\](?:\.(?:text|image_url|video_url|audio_url)(?:\.url)?)?|images\[\d+\])/;

/**
 * The request part an error names: a path in the message (`content[2].image_url`, as the service
 * and the proxy write it), or a parameter name the message starts with (`resolution: …`).
 */
export function namedParam(message: string): string | null {
  const path = PATH_IN_TEXT.exec(message);
  if (path) return path[1]!;
  const lead = /^([a-z_]+):/.exec(message);
  return lead && (isGenerationParameter(lead[1]!) || lead[1] === 'prompt') ? lead[1]! : null;
}

/** A message with the request paths it mentions replaced by their names ('Reference image 2: …'). */
export function humanize(message: string, body?: Pick<VideoCreateBody, 'content'>, model?: { id: string; label: string }): string {
  let out = message.replace(new RegExp(PATH_IN_TEXT.source, 'g'), (path) => describeParam(path, body));
  const lead = /^([a-z_]+):/.exec(out);
  if (lead && (isGenerationParameter(lead[1]!) || lead[1] === 'prompt')) out = describeParam(lead[1]!) + out.slice(lead[1]!.length);
  if (model && model.id !== model.label) out = out.split(model.id).join(model.label);
  return out;
}

/** One line of a request summary: which part, what it holds, and the path that names it. */
export interface SummaryLine {
  /** `content[2]`, `resolution`… */
  param: string;
  label: string;
  value: string;
}

/** The request in the member's words: the prompt, each reference, then each parameter sent. */
export function requestSummary(body: VideoCreateBody, assetNames: ReadonlyMap<string, string> = new Map()): SummaryLine[] {
  const lines: SummaryLine[] = [];
  if (body.prompt !== undefined) lines.push({ param: 'prompt', label: t('tasks.param.prompt'), value: body.prompt });
  body.content?.forEach((element, i) => {
    const param = `content[${i}]`;
    const value = element.type === 'text' ? element.text : element.type === 'image_url' ? element.image_url.url : element.type === 'video_url' ? element.video_url.url : element.audio_url.url;
    lines.push({ param, label: describeParam(param, body), value: shortUrl(value, assetNames) });
  });
  for (const name of GENERATION_PARAMETERS) {
    const value = body[name];
    if (value !== undefined) lines.push({ param: name, label: paramLabel(name), value: String(value) });
  }
  return lines;
}

/** Whether a summary line is the part an error names (`content[2].image_url` names `content[2]`). */
export function isNamed(line: SummaryLine, named: string | null): boolean {
  if (!named) return false;
  const index = contentIndex(named);
  return index !== null ? line.param === `content[${index}]` : line.param === named;
}

/** Data URIs are long: their kind and size instead. A library asset: its name, when known here. */
export function shortUrl(url: string, assetNames: ReadonlyMap<string, string> = new Map()): string {
  const assetId = parseAssetRef(url);
  const name = assetId ? assetNames.get(assetId) : undefined;
  if (name) return t('tasks.libraryAsset', { name, url });
  if (!url.startsWith('data:')) return url;
  const kind = /^data:([^;,]+)/.exec(url)?.[1] ?? 'data';
  return t('tasks.inlineFile', { kind, kb: Math.round((url.length * 3) / 4 / 1024) });
}
