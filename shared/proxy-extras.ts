import * as v from 'valibot';
import { TASK_STATUSES } from './video/task';
import { arkbridgeFieldSchema } from './gateway/arkbridge-field';
import { recordOf, strictObjectMessage } from './validation';

/**
 * Shapes of the proxy's answers that have no schema elsewhere: its error object, the `/api/v3`
 * envelope, the member extras (`/proxy/*`), the media store, the video task answers, health. The
 * proxy's OpenAPI document (`GET /openapi.json`) is generated from these; a client may read with
 * them. A `metadata({ ref })` names the schema in the document's `components`.
 */

const nonNegativeInteger = v.pipe(v.number(), v.integer(), v.minValue(0));

/** The error object of `/v1`, `/proxy`, `/admin` and `/media` (docs/proxy-api.md, "Error codes"). */
export const errorAnswerSchema = v.pipe(
  v.object({
    error: v.object({
      code: v.pipe(v.string(), v.description('What went wrong, as a stable snake_case code (`invalid_parameter`, `unauthorized`, ...).')),
      message: v.pipe(v.string(), v.description('One sentence for a person.')),
      type: v.optional(v.string()),
      param: v.optional(v.pipe(v.string(), v.description('The field, query parameter or header refused.'))),
    }),
  }),
  v.description('Some codes add members to `error`: `budget_exceeded` (scope, remaining, cost, currency), `too_many_running_tasks` (running, maxRunning).'),
  v.metadata({ ref: 'Error' }),
);
export type ErrorAnswer = v.InferOutput<typeof errorAnswerSchema>;

/** The `/api/v3` envelope: `Result` on success, `ResponseMetadata.Error` on a failure (which may come with HTTP 200). */
export const libraryEnvelopeSchema = v.pipe(
  v.object({
    ResponseMetadata: v.object({
      RequestId: v.string(),
      Action: v.string(),
      Version: v.string(),
      Service: v.string(),
      Region: v.string(),
      Error: v.optional(v.object({ Code: v.string(), Message: v.string() })),
    }),
    Result: v.optional(v.unknown()),
  }),
  v.metadata({ ref: 'LibraryEnvelope' }),
);

/** `GET /healthz`. */
export const healthSchema = v.object({
  status: v.literal('ok'),
  config: v.optional(v.literal('incomplete')),
  /** The settings a deployment still lacks. */
  missing: v.optional(v.array(v.string())),
  /** Settings that are set but refused (ALERT_WEBHOOK_URL on a host the proxy does not post to): named, never their value. */
  refused: v.optional(v.array(v.string())),
});

// --- member extras: /proxy/* ---

/** `GET /proxy/me`: the calling member. */
export const memberSelfSchema = v.object({ id: v.string(), name: v.string() });

export const CONSENT_SCOPES = ['portrait'] as const;

/** `POST /proxy/consents`. */
export const consentSchema = v.strictObject(
  {
    scope: v.picklist(CONSENT_SCOPES, 'must be portrait'),
    rulesVersion: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')),
  },
  strictObjectMessage('is not a field of this call'),
);

/** One consent on record. */
export const consentRecordSchema = v.pipe(
  v.object({ scope: v.string(), rulesVersion: v.string(), acceptedAt: v.pipe(v.string(), v.description('ISO 8601 UTC.')) }),
  v.metadata({ ref: 'Consent' }),
);

/** `GET /proxy/consents`, oldest first. */
export const consentListSchema = v.object({ consents: v.array(consentRecordSchema) });

/** One model of the catalog as `GET /proxy/capabilities` lists it (shared/catalog/models.ts). */
const catalogModelSchema = v.looseObject({
  id: v.string(),
  label: v.string(),
  modes: v.array(v.picklist(['text', 'first_frame', 'first_last', 'reference'])),
  parameters: recordOf(v.string(), v.looseObject({ type: v.picklist(['enum', 'integer', 'boolean']) })),
  references: v.nullable(v.looseObject({})),
  assetRefs: v.boolean(),
  dataUriImages: v.boolean(),
});

/** `GET /proxy/capabilities`: the model catalog, and whether plain `http://` media is accepted. */
export const capabilitiesSchema = v.object({
  models: v.array(catalogModelSchema),
  media: v.object({ allowHttp: v.boolean() }),
});

// --- the media store ---

/** `POST /proxy/uploads` (201). */
export const uploadAnswerSchema = v.object({
  id: v.string(),
  url: v.pipe(v.string(), v.description('A signed `/media/...` address, valid MEDIA_URL_TTL_SECONDS.')),
  expiresAt: v.pipe(nonNegativeInteger, v.description('Unix seconds.')),
  size: nonNegativeInteger,
  contentType: v.string(),
  sha256: v.string(),
  name: v.nullable(v.string()),
  existing: v.pipe(
    v.optional(v.boolean()),
    v.description('true (answered 200) when the member had already uploaded these bytes (same SHA-256, still kept): the upload answered is that one and nothing was stored again; false (201) for a new upload. Always sent by the proxy; optional for older proxies.'),
  ),
});

/** `GET /proxy/uploads`: the caller's uploads, 1,000 a page. */
export const uploadListSchema = v.object({
  uploads: v.array(
    v.object({
      id: v.string(),
      size: nonNegativeInteger,
      contentType: v.nullable(v.string()),
      name: v.nullable(v.string()),
      expiresAt: nonNegativeInteger,
      uploadedAt: v.string(),
    }),
  ),
  /** For the next page; null on the last. */
  cursor: v.nullable(v.string()),
});

// --- video: the service's answers, with the proxy's `arkbridge` member ---

/** `GET /v1/models`: the service's list, passed through. */
export const modelListSchema = v.looseObject({
  object: v.optional(v.literal('list')),
  data: v.array(v.looseObject({ id: v.string(), object: v.optional(v.string()), owned_by: v.optional(v.string()), created: v.optional(v.number()) })),
});

/** `POST /v1/video/generations`: the service's answer (the task id) with `arkbridge` appended. */
export const videoCreateAnswerSchema = v.looseObject({ id: v.string(), arkbridge: arkbridgeFieldSchema });

/** `GET /v1/video/generations/{id}`: the service's task with `arkbridge` appended. */
export const videoTaskAnswerSchema = v.pipe(
  v.looseObject({
    id: v.string(),
    task_id: v.optional(v.string()),
    object: v.optional(v.literal('video')),
    model: v.string(),
    status: v.picklist(TASK_STATUSES),
    progress: v.optional(v.number()),
    created_at: v.optional(v.number()),
    completed_at: v.optional(v.number()),
    metadata: v.optional(v.looseObject({ url: v.string(), last_frame_url: v.optional(v.string()) })),
    error: v.optional(v.looseObject({ code: v.string(), message: v.string() })),
    usage: v.optional(v.looseObject({ completion_tokens: v.number() })),
    arkbridge: arkbridgeFieldSchema,
  }),
  v.metadata({ ref: 'VideoTask' }),
);
