'use client';

import { useState } from 'react';
import { useSessionUser } from './session-context';

/** The signed-in user and their role, and Sign out (POST /api/auth/sign-out, then the sign-in page). */
export function UserMenu() {
  const user = useSessionUser();
  const [busy, setBusy] = useState(false);
  if (!user) return null;
  const signOut = async () => {
    setBusy(true);
    try {
      await fetch('/api/auth/sign-out', { method: 'POST', cache: 'no-store' });
    } finally {
      window.location.assign('/sign-in');
    }
  };
  return (
    <div className="user-menu" data-testid="user-menu">
      <span>
        <span className="visually-hidden">Signed in as </span>
        <strong data-testid="signed-in-user">{user.name}</strong>{' '}
        <span className={`pill pill-role-${user.role}`}>{user.role}</span>
      </span>
      <button type="button" className="button button-small" onClick={() => void signOut()} disabled={busy}>
        {busy ? 'Signing out…' : 'Sign out'}
      </button>
    </div>
  );
}
