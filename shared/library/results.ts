import type { Action } from './constants';
import type {
  Asset,
  AssetGroup,
  AssetGroupListItem,
  AssetListItem,
  EmptyResult,
  IdResult,
  Page,
  PortraitSession,
  ResolvedPortrait,
} from './resources';

/** The `Result` of each operation. */
export interface LibraryResults {
  CreateAssetGroup: IdResult;
  ListAssetGroups: Page<AssetGroupListItem>;
  GetAssetGroup: AssetGroup;
  UpdateAssetGroup: IdResult;
  DeleteAssetGroup: EmptyResult;
  CreateAsset: IdResult;
  GetAsset: Asset;
  ListAssets: Page<AssetListItem>;
  UpdateAsset: IdResult;
  DeleteAsset: EmptyResult;
  CreatePortraitSession: PortraitSession;
  ResolvePartnerToken: ResolvedPortrait;
}

export type LibraryResult<A extends Action> = LibraryResults[A];
