import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/sign-in-form';
import { safeNextPath } from '@/lib/server/auth/access';
import { requestPrincipal } from '../request-principal';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sign in' };

/** The sign-in page; someone already signed in goes straight on to where they were heading. */
export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = (await searchParams).next;
  const next = safeNextPath(typeof raw === 'string' ? raw : null);
  if (await requestPrincipal()) redirect(next);
  return <SignInForm next={next} />;
}
