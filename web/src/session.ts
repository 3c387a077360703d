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
