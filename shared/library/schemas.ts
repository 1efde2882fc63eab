import * as v from 'valibot';
import { strictObjectMessage } from '../validation';
import { LIMITS } from '../limits';
import { mediaUrlProblem, type MediaUrlOptions } from '../media-url';
import { ASSET_STATUSES, ASSET_TYPES, GROUP_TYPES, type Action } from './constants';

/**
 * One request schema per `/api/v3` operation. Objects are strict: a parameter the service does
 * not define is a `ValidationError`, not silently dropped.
 */

const UNKNOWN = 'is not a parameter of this operation';
const strict = <E extends v.ObjectEntries>(entries: E) => v.strictObject(entries, strictObjectMessage(UNKNOWN));

const id = v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(128, 'must be at most 128 characters'));
/** A group name: 1 to 64 characters. */
export const groupName = v.pipe(
  v.string('must be a string'),
  v.minLength(LIMITS.groupNameMin, `must be ${LIMITS.groupNameMin} to ${LIMITS.groupNameMax} characters`),
  v.maxLength(LIMITS.groupNameMax, `must be ${LIMITS.groupNameMin} to ${LIMITS.groupNameMax} characters`),
);
/** A group description: at most 300 characters (empty clears). */
export const groupDescription = v.pipe(
  v.string('must be a string'),
  v.maxLength(LIMITS.groupDescriptionMax, `must be at most ${LIMITS.groupDescriptionMax} characters`),
);
const assetName = v.pipe(
  v.string('must be a string'),
  v.nonEmpty('must not be empty'),
  v.maxLength(LIMITS.assetNameMax, `must be at most ${LIMITS.assetNameMax} characters`),
);
const pick = <T extends readonly string[]>(values: T) => v.picklist(values, `must be one of ${values.join(', ')}`);

const pageNumber = v.optional(
  v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1')),
  LIMITS.pageNumberDefault,
);
const pageSize = v.optional(
  v.pipe(
    v.number('must be an integer'),
    v.integer('must be an integer'),
    v.minValue(1, 'must be at least 1'),
    v.maxValue(LIMITS.pageSizeMax, `must be at most ${LIMITS.pageSizeMax}`),
  ),
  LIMITS.pageSizeDefault,
);
const idList = v.array(id, 'must be a list of ids');
const sortOrder = v.optional(pick(['Desc', 'Asc'] as const), 'Desc');

const mediaUrl = (options: MediaUrlOptions) =>
  v.pipe(
    v.string('must be a string'),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = mediaUrlProblem(dataset.value, options);
      if (problem) addIssue({ message: problem });
    }),
  );

/** Builds the twelve schemas; `allowHttp` relaxes asset URLs to plain http for local use. */
function buildSchemas(options: MediaUrlOptions) {
  return {
    CreateAssetGroup: strict({
      Name: groupName,
      Description: v.optional(groupDescription, ''),
      GroupType: v.optional(v.picklist(['AIGC'] as const, 'must be AIGC (real-person groups come only from the portrait flow)'), 'AIGC'),
    }),
    ListAssetGroups: strict({
      Filter: v.optional(
        strict({
          GroupIds: v.optional(idList),
          GroupType: v.optional(pick(GROUP_TYPES)),
          Name: v.optional(v.string('must be a string')),
        }),
        {},
      ),
      PageNumber: pageNumber,
      PageSize: pageSize,
      SortBy: v.optional(pick(['CreateTime', 'UpdateTime'] as const), 'CreateTime'),
      SortOrder: sortOrder,
    }),
    GetAssetGroup: strict({ Id: id }),
    UpdateAssetGroup: strict({
      Id: id,
      Name: v.optional(groupName),
      Description: v.optional(groupDescription),
    }),
    DeleteAssetGroup: strict({ Id: id }),
    CreateAsset: strict({
      GroupId: id,
      AssetType: pick(ASSET_TYPES),
      Name: assetName,
      URL: mediaUrl(options),
    }),
    GetAsset: strict({ Id: id }),
    ListAssets: strict({
      Filter: v.optional(
        strict({
          GroupIds: v.optional(idList),
          GroupType: v.optional(pick(GROUP_TYPES)),
          Statuses: v.optional(v.array(pick(ASSET_STATUSES), 'must be a list of statuses')),
          Name: v.optional(v.string('must be a string')),
        }),
        {},
      ),
      PageNumber: pageNumber,
      PageSize: pageSize,
      SortBy: v.optional(pick(['CreateTime', 'UpdateTime', 'GroupId'] as const), 'CreateTime'),
      SortOrder: sortOrder,
    }),
    UpdateAsset: strict({ Id: id, Name: assetName }),
    DeleteAsset: strict({ Id: id }),
    CreatePortraitSession: strict({
      ContinuousCreate: v.optional(v.boolean('must be true or false'), false),
    }),
    ResolvePartnerToken: strict({
      PartnerToken: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(512, 'is too long')),
    }),
  } satisfies Record<Action, v.GenericSchema>;
}

export type LibrarySchemas = ReturnType<typeof buildSchemas>;

const strictSchemas = buildSchemas({ allowHttp: false });
const httpSchemas = buildSchemas({ allowHttp: true });

/** The request schemas of all twelve operations (asset URLs https-only unless `allowHttp`). */
export const librarySchemas = (options: MediaUrlOptions = {}): LibrarySchemas =>
  options.allowHttp ? httpSchemas : strictSchemas;

/** The parsed request body of an operation (defaults applied). */
export type LibraryRequest<A extends Action> = v.InferOutput<LibrarySchemas[A]>;
/** The request body a caller sends (defaults optional). */
export type LibraryRequestInput<A extends Action> = v.InferInput<LibrarySchemas[A]>;
