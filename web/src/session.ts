import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { SessionInfo } from './api';

export const SessionContext = createContext<SessionInfo | null>(null);

/** The signed-in user's session; pages render only inside a signed-in app. */
export function useSessionInfo(): SessionInfo {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSessionInfo outside a signed-in app');
  return session;
}

/**
 * Whether the signed-in role may do this (the server's rule, src/accounts/roles.ts): `edit` is a
 * dispatcher's or an admin's, `admin` an admin's only. The workspace hides what it may not.
 */
export function useCan(permission: 'edit' | 'admin'): boolean {
  const { role } = useSessionInfo();
  return role === 'admin' || (permission === 'edit' && role === 'dispatcher');
}

/** The account's own settings (GET /v6/api/accountManagement/account). */
export interface AccountSettings {
  accountID: number;
  name: string;
  timeZone: string;
  locale: 'ru' | 'en';
  settingsConfirmed: boolean;
  twoFactorRequired: boolean;
}

export const ACCOUNT = '/v6/api/accountManagement/account';

/** Tells the app the account's name or zone changed, so every page shows the new ones. */
export const AccountChangedContext = createContext<(account: AccountSettings) => void>(() => {});

export function useAccountChanged(): (account: AccountSettings) => void {
  return useContext(AccountChangedContext);
}
