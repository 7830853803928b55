'use client';

import { useId, useRef, useState, type FormEvent } from 'react';
import { ApiRequestError, fetchJson } from './api-client';
import './sign-in-form.css';

/**
 * The sign-in form: POSTs /api/auth/sign-in as JSON and, once the session cookie is set, loads the page the
 * user came for. The password never leaves this form except in that request; errors come from the server
 * ("wrong user name or password", or when to try again after too many failures).
 */
export function SignInForm({ next }: { next: string }) {
  const id = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    const password = String(form.get('password') ?? '');
    if (name === '') {
      setProblem('name: is required');
      nameRef.current?.focus();
      return;
    }
    if (password === '') {
      setProblem('password: is required');
      passwordRef.current?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const session = await fetchJson('/api/auth/sign-in', 'session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, password, next }),
      });
      window.location.assign(session.next ?? '/');
    } catch (error) {
      setBusy(false);
      setProblem(error instanceof ApiRequestError ? error.message : 'the sign-in failed; try again');
      if (passwordRef.current) {
        passwordRef.current.value = '';
        passwordRef.current.focus();
      }
    }
  };

  return (
    <form className="card sign-in" onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>Sign in to Warden</h1>
      <label className="field">
        <span>User name</span>
        <input
          ref={nameRef}
          name="name"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          autoFocus
        />
      </label>
      <label className="field">
        <span>Password</span>
        <input ref={passwordRef} name="password" type="password" autoComplete="current-password" required />
      </label>
      {problem ? (
        <p role="alert" className="banner banner-error" data-testid="sign-in-error">
          {problem}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </div>
      <p className="muted small">
        Viewers can read every page; operators can also resume, skip, seek and reset offsets.
      </p>
    </form>
  );
}
