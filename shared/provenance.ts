import * as v from 'valibot';
import { ASSET_BATCH_MAX, assetIdBatchSchema } from './asset-ids';
import { dropHiddenCharacters, labelOrNullField } from './labels';
import { recordOf, strictObjectMessage } from './validation';

/**
 * Provenance of an asset (docs/proxy-api.md#asset-sources): where the extension captured it. The
 * proxy keeps one source per asset, in the asset owner's member object, and answers it to whoever
 * may read the asset (its owner, and the members a group holding it is shared with). One schema
 * per shape; the proxy checks bodies with them and its OpenAPI document is generated from them.
 */

/** How the asset was captured: a link to media on the page, an upload of bytes, a screenshot, a video frame, a local file. */
export const SOURCE_HOWS = ['link', 'upload', 'screenshot', 'frame', 'file'] as const;
export type SourceHow = (typeof SOURCE_HOWS)[number];

export const SOURCE_URL_MAX = 2048;
export const SOURCE_TITLE_MAX = 300;
/** `POST /proxy/sources`: at most this many ids a call. */
export const SOURCE_BATCH_MAX = ASSET_BATCH_MAX;

/**
 * What a source's URL loses before it is stored: the label rule's removed characters
 * (shared/labels.ts), which could make it read backwards in a teammate's list. The title follows
 * the whole label rule.
 */
export const stripSourceText = dropHiddenCharacters;

const httpUrl = (raw: string): boolean => {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

/** Checked for length before anything else, then stripped, then checked as an `http(s)://` URL. */
const pageUrl = v.nullable(
  v.pipe(
    v.string('must be a string or null'),
    v.maxLength(SOURCE_URL_MAX, `must be at most ${SOURCE_URL_MAX} characters`),
    v.transform(stripSourceText),
    v.check(httpUrl, 'must be an http:// or https:// URL'),
  ),
);

/** By the label rule (shared/labels.ts); a title with nothing left is null. */
const pageTitle = v.nullable(labelOrNullField(SOURCE_TITLE_MAX, 'must be a string or null'));

/** ISO 8601 with a time and a zone (`Date.prototype.toISOString()` gives one); answered normalised to UTC. */
const capturedAt = v.pipe(
  v.string('must be an ISO 8601 date-time string'),
  v.maxLength(40, 'must be at most 40 characters'),
  v.isoTimestamp('must be an ISO 8601 date-time with a time zone, like 2026-11-26T09:30:00.000Z'),
  v.transform((t) => new Date(t).toISOString()),
);

/**
 * `PUT /proxy/assets/{assetId}/source`: where the asset came from. `pageUrl` and `pageTitle` may
 * be null (a local file has no page). Unknown fields are refused (400 naming them).
 */
export const assetSourceInputSchema = v.strictObject(
  {
    pageUrl,
    pageTitle,
    capturedAt,
    how: v.picklist(SOURCE_HOWS, 'must be link, upload, screenshot, frame or file'),
  },
  strictObjectMessage('is not a field of this call'),
);
export type AssetSourceInput = v.InferInput<typeof assetSourceInputSchema>;

/** A source as the proxy keeps and answers it (the input after stripping and normalising, with when and by whom it was set). */
export const assetSourceSchema = v.pipe(
  v.object({
    pageUrl: v.nullable(v.string()),
    pageTitle: v.nullable(v.string()),
    capturedAt: v.pipe(v.string(), v.description('ISO 8601 UTC.')),
    how: v.picklist(SOURCE_HOWS),
    /** The member whose asset it is (its owner of record); after a transfer, the heir. */
    owner: v.string(),
    updatedAt: v.pipe(v.string(), v.description('ISO 8601 UTC: when the source was last set.')),
  }),
  v.metadata({ ref: 'AssetSource' }),
);
export type AssetSource = v.InferOutput<typeof assetSourceSchema>;

/** The answer of `PUT /proxy/assets/{assetId}/source` (200). */
export const assetSourceAnswerSchema = v.object({ assetId: v.string(), source: assetSourceSchema });
export type AssetSourceAnswer = v.InferOutput<typeof assetSourceAnswerSchema>;

/** `POST /proxy/sources`: the sources of up to 100 assets at once (repeats are answered once). */
export const sourceLookupSchema = assetIdBatchSchema;
export type SourceLookup = v.InferInput<typeof sourceLookupSchema>;

/**
 * The answer of `POST /proxy/sources`: a source per asset id the caller may read that has one. An
 * id the caller may not read, or with no source, is left out (never said which of the two).
 */
export const sourceLookupAnswerSchema = v.object({ sources: recordOf(v.string(), assetSourceSchema) });
export type SourceLookupAnswer = v.InferOutput<typeof sourceLookupAnswerSchema>;
