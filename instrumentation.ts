// Runs once when the dashboard server starts (next start / next dev), before it serves anything: the dashboard
// has no open mode, so without users and a session secret it stops here with the reason (never the values).
// NEXT_RUNTIME is not configuration: Next.js replaces it with a constant per bundle at build time, which keeps
// the Node.js-only check out of the Edge bundle (the documented pattern; lib/config/program-config.ts reads
// everything else).

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { exitUnlessAccessConfigured } = await import('./lib/server/auth/startup-check');
    exitUnlessAccessConfigured();
  }
}
