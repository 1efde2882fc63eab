import type { AssetStatus, AssetType, GroupType, ReadinessStatus } from './constants';

/** Resources of the asset library, as the service returns them. */
export interface AssetGroup {
  Id: string;
  Name: string;
  Description: string;
  GroupType: GroupType;
}

export interface AssetGroupListItem extends AssetGroup {
  CreateTime: string;
  UpdateTime: string;
}

export interface AssetError {
  Code: string;
  Message: string;
}

export interface ModelReadiness {
  Models: string[];
  Status: ReadinessStatus;
  Error?: { Message: string };
}

export interface AssetListItem {
  Id: string;
  GroupId: string;
  Name: string;
  URL: string;
  AssetType: AssetType;
  Status: AssetStatus;
  Error: AssetError;
}

export interface Asset extends AssetListItem {
  ModelReadiness?: ModelReadiness[];
}

export interface PortraitSession {
  H5Link: string;
  PartnerToken: string;
  ExpiresIn: number;
  ExpireTime: string;
}

export interface ResolvedPortrait {
  GroupId: string;
  GroupName: string;
  GroupDescription: string;
}

export interface Page<T> {
  Items: T[];
  TotalCount: number;
  PageNumber: number;
  PageSize: number;
}

export type IdResult = { Id: string };
export type EmptyResult = Record<string, never>;
