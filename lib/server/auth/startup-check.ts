import { dashboardStartupProblem } from './auth-settings';

/** Called once at dashboard start-up (instrumentation.ts): exits 1 with the reason when access is not configured. */
export function exitUnlessAccessConfigured(): void {
  const problem = dashboardStartupProblem();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
