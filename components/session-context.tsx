'use client';

import { createContext, useContext, type ReactNode } from 'react';
import type { TRole } from '@/lib/schemas/auth';

/** Who is signed in, as the server saw it when rendering the page: a name and a role, never a credential. */
export interface SessionUser {
  name: string;
  role: TRole;
}

const SessionContext = createContext<SessionUser | null>(null);

export function SessionProvider({ user, children }: { user: SessionUser | null; children: ReactNode }) {
  return <SessionContext.Provider value={user}>{children}</SessionContext.Provider>;
}

/** The signed-in user, or null on the sign-in page. */
export function useSessionUser(): SessionUser | null {
  return useContext(SessionContext);
}

/** Whether the signed-in user may resume, skip, seek and reset offsets. The API enforces it regardless. */
export function useCanOperate(): boolean {
  return useSessionUser()?.role === 'operator';
}
