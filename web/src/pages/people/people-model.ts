/** The users and API tokens of the account as /v6/api/userManagement answers them. */
export type Role = 'admin' | 'dispatcher' | 'viewer';
export const ROLES: Role[] = ['admin', 'dispatcher', 'viewer'];

export interface User {
  userID: number;
  login: string;
  name: string;
  role: Role;
  subscriberGroupIDs: number[] | null;
  isActive: boolean;
  lastSignInDate: string | null;
}

export interface ApiToken {
  tokenID: number;
  name: string;
  role: Role;
  subscriberGroupIDs: number[] | null;
  createdDate: string;
  lastUsedDate: string | null;
  isRevoked: boolean;
}

export interface GroupName {
  subscriberGroupID: number;
  name: string;
}

export const USERS = '/v6/api/userManagement/users';
export const TOKENS = '/v6/api/userManagement/tokens';
export const GROUPS = '/v6/api/subscriberManagement/subscriberGroups';
