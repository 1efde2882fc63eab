import type * as v from 'valibot';
import type {
  addedMemberSchema,
  createdTokenSchema,
  memberProfileSchema,
  memberScopeSchema,
  tokenListSchema,
  auditListSchema,
  AuditEntry,
  budgetStateSchema,
  BudgetState,
  consentRecordSchema,
  memberBudgetListSchema,
  memberBudgetStateSchema,
  MemberBudgetState,
  memberListSchema,
  memberSelfSchema,
  storedPricesSchema,
  TeamTask,
  teamTaskListSchema,
  uploadAnswerSchema,
  uploadListSchema,
  usageReportSchema,
  galleryListSchema,
  groupSharingSchema,
  memberGroupListSchema,
  sharedGroupListSchema,
  transferAnswerSchema,
} from '../../../../shared';
import type { TeamLibrary } from '../../objects/team-library';
import type { transferLibrary } from '../../domain/sharing/held-library';
import type { memberGroups } from '../../domain/sharing/member-groups';
import type { TeamLedger } from '../../objects/team-ledger';
import type { StoredPrices } from '../../domain/ledger/price-book';
import type { listUploads, UploadAnswer } from '../../domain/media/upload-handler';
import type { MemberDirectory } from '../../objects/member-directory';
import type { Consent } from '../../domain/members/consents';
import type { MemberState } from '../../objects/member-state';

/**
 * The answer schemas the OpenAPI document shows were written after the handlers' types: these
 * compile only while every answer still fits its documented schema (a change to one without the
 * other is a type error here). Types only: nothing of this is bundled.
 */

type Fits<Answer, Schema extends v.GenericSchema> = [Answer] extends [v.InferOutput<Schema>] ? true : false;
type Assert<T extends true> = T;

export type AnswerShapes = [
  Assert<Fits<Exclude<Awaited<ReturnType<MemberDirectory['add']>>, string>, typeof addedMemberSchema>>,
  Assert<Fits<NonNullable<Awaited<ReturnType<MemberDirectory['setScope']>>>, typeof memberScopeSchema>>,
  Assert<Fits<Exclude<NonNullable<Awaited<ReturnType<MemberDirectory['setEmail']>>>, string>, typeof memberProfileSchema>>,
  Assert<Fits<{ tokens: NonNullable<ReturnType<MemberState['tokens']>> }, typeof tokenListSchema>>,
  Assert<Fits<{ tokens: NonNullable<ReturnType<MemberState['adminTokens']>> }, typeof tokenListSchema>>,
  Assert<Fits<Exclude<NonNullable<ReturnType<MemberState['addToken']>>, string>, typeof createdTokenSchema>>,
  Assert<Fits<{ members: Awaited<ReturnType<MemberDirectory['list']>> }, typeof memberListSchema>>,
  Assert<Fits<NonNullable<Awaited<ReturnType<MemberState['me']>>>, typeof memberSelfSchema>>,
  Assert<Fits<Consent, typeof consentRecordSchema>>,
  Assert<Fits<UploadAnswer, typeof uploadAnswerSchema>>,
  Assert<Fits<Awaited<ReturnType<typeof listUploads>>, typeof uploadListSchema>>,
  Assert<Fits<StoredPrices, typeof storedPricesSchema>>,
  Assert<Fits<BudgetState, typeof budgetStateSchema>>,
  Assert<Fits<MemberBudgetState, typeof memberBudgetStateSchema>>,
  Assert<Fits<{ budgets: ReturnType<TeamLedger['memberBudgets']> }, typeof memberBudgetListSchema>>,
  Assert<Fits<ReturnType<TeamLedger['report']>, typeof usageReportSchema>>,
  Assert<Fits<{ tasks: TeamTask[] }, typeof teamTaskListSchema>>,
  Assert<Fits<{ entries: AuditEntry[] }, typeof auditListSchema>>,
  Assert<Fits<ReturnType<TeamLibrary['setSharing']>, typeof groupSharingSchema>>,
  Assert<Fits<{ groups: ReturnType<TeamLibrary['sharedWith']> }, typeof sharedGroupListSchema>>,
  Assert<Fits<ReturnType<TeamLibrary['gallery']>, typeof galleryListSchema>>,
  Assert<Fits<Awaited<ReturnType<typeof transferLibrary>>, typeof transferAnswerSchema>>,
  Assert<Fits<Awaited<ReturnType<typeof memberGroups>>, typeof memberGroupListSchema>>,
];
