'use client';

import { useState } from 'react';
import { useSessionUser } from './session-context';
import './user-menu.css';

type SignOutScope = 'this' | 'all';

const SIGN_OUT_URL: Record<SignOutScope, string> = {
  this: '/api/auth/sign-out',
  all: '/api/auth/sign-out-all',
};

/**
 * The signed-in user and their role; Sign out (ends this session) and Sign out everywhere (ends every
 * session of the user: other browsers and any copied cookie), then the sign-in page either way.
 */
export function UserMenu() {
  const user = useSessionUser();
  const [busy, setBusy] = useState<SignOutScope | null>(null);
  if (!user) return null;
  const signOut = async (scope: SignOutScope) => {
    setBusy(scope);
    try {
      await fetch(SIGN_OUT_URL[scope], { method: 'POST', cache: 'no-store' });
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
      <button
        type="button"
        className="button button-small"
        onClick={() => void signOut('this')}
        disabled={busy !== null}
      >
        {busy === 'this' ? 'Signing out…' : 'Sign out'}
      </button>
      <button
        type="button"
        className="button button-small"
        onClick={() => void signOut('all')}
        disabled={busy !== null}
        title="Ends every session of yours: other browsers and devices, and any copy of this session's cookie"
      >
        {busy === 'all' ? 'Signing out…' : 'Sign out everywhere'}
      </button>
    </div>
  );
}
